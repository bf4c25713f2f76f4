"""Round robin: everyone meets everyone, by the circle (Berger) method.

Two sides per table: with an odd count a phantom entrant is added, and whoever meets the
phantom sits out that round, so each entrant sits out exactly once per cycle. Entrant 1 stays
fixed and the others rotate one place per round; a cycle is ``n - 1`` rounds (``n`` when odd) and
meets every pair exactly once. Seats alternate: each table gives seat 0 to whoever has had it
less often so far, and a second cycle repeats the first with seats swapped, so a double round
robin is exactly balanced.

Tables of three or more (3- and 5-player games): an exact design where every pair meets exactly
once (a resolvable block design, such as a Kirkman triple system) exists only for special field
sizes, so we build a balanced schedule instead: each round the sit-outs go to the entrants who
have sat out least (longest ago on ties), and the others are seated by `groups.seat_groups` to
meet as many new opponents as possible. The default length is the fewest rounds in which every
entrant could meet every other, ``ceil((n - 1) / (table_size - 1))`` per cycle.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from tournaments.formats.errors import FormatError
from tournaments.formats.groups import seat_groups
from tournaments.formats.history import pair_key
from tournaments.formats.values import Entrant, Field, Pairing, Round


def round_robin(
    entrants: Sequence[Entrant],
    *,
    cycles: int = 1,
    table_size: int = 2,
    rounds: int | None = None,
) -> tuple[Round, ...]:
    """Every round of a round robin, numbered from 1 across cycles.

    `rounds` applies to tables of three or more only (default: see the module docstring).

    >>> rs = round_robin([Entrant(x, i) for i, x in enumerate("abcd", 1)])
    >>> for r in rs:
    ...     print(r.number, [p.entrants for p in r.pairings])
    1 [('a', 'd'), ('c', 'b')]
    2 [('b', 'a'), ('d', 'c')]
    3 [('a', 'c'), ('b', 'd')]
    """
    if not isinstance(cycles, int) or cycles < 1:
        raise FormatError("cycles", f"must be an integer >= 1, got {cycles!r}")
    if not isinstance(table_size, int) or table_size < 2:
        raise FormatError("table_size", f"must be an integer >= 2, got {table_size!r}")
    fld = Field.of(entrants, minimum=2)
    if table_size == 2:
        if rounds is not None:
            raise FormatError("rounds", "the length of a two-sided round robin is fixed")
        return _berger(fld, cycles)
    if len(fld) < table_size:
        raise FormatError("entrants", f"{len(fld)} entrants cannot fill a table of {table_size}")
    per_cycle = -(-(len(fld) - 1) // (table_size - 1))
    if rounds is None:
        rounds = per_cycle * cycles
    elif not isinstance(rounds, int) or rounds < 1:
        raise FormatError("rounds", f"must be an integer >= 1, got {rounds!r}")
    return _groups(fld, table_size, rounds)


def _berger(fld: Field, cycles: int) -> tuple[Round, ...]:
    ring: list[str | None] = list(fld.ids)
    if len(ring) % 2:
        ring.append(None)
    m = len(ring)
    fixed, rest = ring[0], ring[1:]
    seat0: dict[str, int] = defaultdict(int)
    cycle: list[list[tuple[str | None, str | None]]] = []
    for r in range(m - 1):
        rot = rest[r:] + rest[:r] if r else rest
        line = [fixed, *rot]
        pairs: list[tuple[str | None, str | None]] = []
        for i in range(m // 2):
            a, b = line[i], line[m - 1 - i]
            if a is not None and b is not None:
                # Fewer seat-0 turns so far sits in seat 0; on a tie alternate by round.
                if (seat0[a], (r + i) % 2) > (seat0[b], 1 - (r + i) % 2):
                    a, b = b, a
                seat0[a] += 1
            pairs.append((a, b))
        cycle.append(pairs)

    out: list[Round] = []
    for c in range(cycles):
        for r, pairs in enumerate(cycle):
            number = c * len(cycle) + r + 1
            tables: list[Pairing] = []
            byes: list[Pairing] = []
            for a, b in pairs:
                if c % 2:
                    a, b = b, a
                if a is None or b is None:
                    who = a if a is not None else b
                    why = f"bye: odd number of entrants, sits out once in cycle {c + 1}"
                    byes.append(Pairing(0, (who, None), why, bye=True))
                else:
                    why = f"round robin cycle {c + 1}, round {r + 1} of {len(cycle)}"
                    tables.append(Pairing(len(tables) + 1, (a, b), why))
            out.append(Round(number, (*tables, *byes)))
    return tuple(out)


def _groups(fld: Field, k: int, rounds: int) -> tuple[Round, ...]:
    ids = list(fld.ids)
    n = len(ids)
    met: dict[tuple[str, str], int] = defaultdict(int)
    sat_out: dict[str, int] = defaultdict(int)
    last_out: dict[str, int] = {}
    out: list[Round] = []
    for number in range(1, rounds + 1):
        # Sit-outs: fewest so far, then longest ago, then lowest seed.
        need = sorted(range(n), key=lambda i: (sat_out[ids[i]], last_out.get(ids[i], 0), -i))
        sitting = {ids[i] for i in need[: n % k]}
        playing = [e for e in ids if e not in sitting]
        # Rotate the starting order each round so the greedy seating varies.
        shift = (number - 1) % len(playing)
        order = playing[shift:] + playing[:shift]
        tables = seat_groups(order, k, times_met=lambda a, b: met[pair_key(a, b)])
        pairings: list[Pairing] = []
        for t, table in enumerate(tables, start=1):
            new = sum(
                1 for i, a in enumerate(table) for b in table[i + 1 :] if not met[pair_key(a, b)]
            )
            total = k * (k - 1) // 2
            why = f"balanced round robin for tables of {k}: {new} of {total} pairs meet for the first time"
            pairings.append(Pairing(t, tuple(table), why))
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    met[pair_key(a, b)] += 1
        for e in sorted(sitting, key=ids.index):
            sat_out[e] += 1
            last_out[e] = number
            why = f"bye: {n} entrants do not fill tables of {k}; fewest sit-outs so far"
            pairings.append(Pairing(0, (e, *([None] * (k - 1))), why, bye=True))
        out.append(Round(number, tuple(pairings)))
    return tuple(out)
