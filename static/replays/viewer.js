// The replay viewer. The server renders each position (for the chosen seat only, so a seat's
// view never reaches the browser with other seats' cards); this module fetches positions as
// the reader steps, keeps the address pointing at the current one and runs the annotation form.

const viewer = document.getElementById("viewer");
const stage = document.getElementById("stage");
const slider = document.getElementById("slider");
const seatSelect = document.getElementById("seat-select");
const share = document.getElementById("share-link");
const table = JSON.parse(document.getElementById("table-data").textContent);
const stepUrl = viewer.dataset.stepUrl;
const baseUrl = viewer.dataset.base;

// Every position of the game in order: [hand, action count].
const positions = [];
for (const h of table.hands) {
  const n = h.summary ? 1 : h.actions + 1;
  for (let k = 0; k < n; k++) positions.push([h.hand, k]);
}
const indexOf = (hand, action) => positions.findIndex(([h, a]) => h === hand && a === action);

function current() {
  const step = stage.querySelector(".step");
  const seat = step.dataset.seat === "" ? null : Number(step.dataset.seat);
  return { hand: Number(step.dataset.hand), action: Number(step.dataset.action), seat };
}

// Where the reader asked to go last; keys pressed quickly step from here, not from what is drawn.
let want = current();
let sequence = 0;

function query(pos) {
  const params = new URLSearchParams({ hand: pos.hand, action: pos.action });
  if (pos.seat !== null) params.set("seat", pos.seat);
  return params.toString();
}

async function show(hand, action, seat = want.seat) {
  if (indexOf(hand, action) < 0) return;
  want = { hand, action, seat };
  const mine = ++sequence;
  slider.value = indexOf(hand, action);
  const response = await fetch(`${stepUrl}?${query(want)}`, { headers: { Accept: "text/html" } });
  if (mine !== sequence) return;
  if (!response.ok) {
    stage.insertAdjacentHTML("afterbegin", `<p class="errors" role="alert"></p>`);
    stage.querySelector(".errors").textContent = await response.text();
    return;
  }
  stage.innerHTML = await response.text();
  followMoves();
  const address = `${baseUrl}?${query(want)}`;
  share.href = address;
  history.replaceState(null, "", address);
  markCards();
  refreshLegal();
}

// Keep the current move in sight inside the moves list (without scrolling the page).
function followMoves() {
  const list = stage.querySelector("ol.moves");
  const current = list && list.querySelector(".move.current");
  if (current) list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
}

function go(where) {
  const { hand, action } = want;
  const i = indexOf(hand, action);
  const info = table.hands[hand];
  const tricks = info.tricks || [0];
  if (where === "next" && i + 1 < positions.length) return show(...positions[i + 1]);
  if (where === "prev" && i > 0) return show(...positions[i - 1]);
  if (where === "start") return show(...positions[0]);
  if (where === "end") return show(...positions[positions.length - 1]);
  if (where === "next-hand" && hand + 1 < table.hands.length) return show(hand + 1, 0);
  if (where === "prev-hand") return action > 0 ? show(hand, 0) : hand > 0 && show(hand - 1, 0);
  if (where === "next-trick") {
    const next = tricks.find((t) => t > action);
    if (next !== undefined) return show(hand, next);
    const last = info.summary ? 0 : info.actions;
    if (action < last) return show(hand, last);
    return hand + 1 < table.hands.length && show(hand + 1, 0);
  }
  if (where === "prev-trick") {
    const before = tricks.filter((t) => t < action);
    if (before.length) return show(hand, before[before.length - 1]);
    if (hand > 0) {
      const prev = table.hands[hand - 1];
      const starts = prev.tricks && prev.tricks.length ? prev.tricks : [0];
      return show(hand - 1, starts[starts.length - 1]);
    }
  }
  return undefined;
}

const KEYS = {
  ArrowRight: "next",
  ArrowLeft: "prev",
  ArrowDown: "next-trick",
  ArrowUp: "prev-trick",
  PageDown: "next-hand",
  PageUp: "prev-hand",
  Home: "start",
  End: "end",
};

document.addEventListener("keydown", (event) => {
  const tag = event.target.tagName;
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || event.altKey || event.ctrlKey || event.metaKey) return;
  const where = KEYS[event.key];
  if (!where) return;
  event.preventDefault();
  go(where);
});

viewer.querySelectorAll("[data-go]").forEach((button) =>
  button.addEventListener("click", () => go(button.dataset.go)),
);

let sliderTimer = null;
slider.addEventListener("input", () => {
  clearTimeout(sliderTimer);
  sliderTimer = setTimeout(() => show(...positions[Number(slider.value)]), 60);
});

// A new seat loads a new page: everything on it (notes, the record as text) is then built for
// that seat alone, and nothing from the open view stays behind in the document.
seatSelect.addEventListener("change", () => {
  const seat = seatSelect.value === "" ? null : Number(seatSelect.value);
  location.assign(`${baseUrl}?${query({ ...want, seat })}`);
});

stage.addEventListener("click", (event) => {
  const link = event.target.closest("a.goto");
  if (link) {
    event.preventDefault();
    show(Number(link.dataset.hand), Number(link.dataset.action));
    return;
  }
  const card = event.target.closest(".pc[data-card]");
  if (card && cardsInput) toggleCard(card.dataset.card);
});

// ------------------------------------------------------------------------------ annotations

const form = document.getElementById("note-form");
const cardsInput = document.getElementById("note-cards");
let variation = [];

function csrf() {
  const field = document.querySelector("input[name=csrfmiddlewaretoken]");
  return field ? field.value : "";
}

function pickedCards() {
  return cardsInput ? cardsInput.value.split(/[\s,]+/).filter(Boolean) : [];
}

function toggleCard(card) {
  const cards = pickedCards();
  const at = cards.indexOf(card);
  if (at >= 0) cards.splice(at, 1);
  else cards.push(card);
  cardsInput.value = cards.join(" ");
  markCards();
}

function markCards() {
  const picked = new Set(pickedCards());
  stage.querySelectorAll(".pc[data-card]").forEach((el) => el.classList.toggle("picked", picked.has(el.dataset.card)));
}

// The annotated spot: the last action played, this hand, or the game.
function target() {
  const kind = document.getElementById("note-target").value;
  if (kind === "game") return {};
  if (kind === "hand") return { hand: want.hand };
  if (want.action === 0) return null;
  return { hand: want.hand, action: want.action - 1 };
}

function setError(message) {
  document.getElementById("note-error").textContent = message || "";
}

function errorText(body) {
  if (!body || !body.errors) return "The request failed.";
  return body.errors.map((e) => (e.pointer ? `${e.pointer}: ${e.message}` : e.message)).join(" ");
}

function drawCard(text) {
  if (text === "JK") return `<span class="pc joker"><span class="rank">Jo</span><span class="suit">★</span></span>`;
  const suit = text.slice(-1);
  const symbol = { S: "♠", C: "♣", D: "♦", H: "♥" }[suit];
  const colour = suit === "H" || suit === "D" ? "red" : "black";
  return `<span class="pc ${colour}"><span class="rank">${text.slice(0, -1)}</span><span class="suit">${symbol}</span></span>`;
}

async function legal(extra = {}) {
  const spot = target();
  if (!spot || spot.hand === undefined) return { problem: "Choose an action or a hand to start a line from." };
  const params = new URLSearchParams({ hand: spot.hand, variation: JSON.stringify(variation), ...extra });
  if (spot.action !== undefined) params.set("action", spot.action);
  const response = await fetch(`${form.dataset.legal}?${params}`, { headers: { Accept: "application/json" } });
  const body = await response.json();
  return response.ok ? body : { problem: errorText(body) };
}

async function refreshLegal() {
  if (!form) return;
  const box = document.getElementById("variation-legal");
  document.getElementById("variation-line").textContent = variation.length
    ? variation.map((a) => `${seatName(a.seat)}: ${describe(a)}`).join(", ")
    : "(none)";
  if (want.seat !== null) {
    box.textContent = "Switch to all hands open to enter a line.";
    return;
  }
  const body = await legal();
  box.innerHTML = "";
  if (body.problem) {
    box.textContent = body.problem;
    return;
  }
  for (const item of body.legal) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.action = JSON.stringify(item.action);
    button.title = `seat ${item.action.seat}: ${item.text}`;
    if (item.action.play) button.innerHTML = drawCard(item.action.play) + (item.action.suit ? ` ${item.action.suit}` : "");
    else button.textContent = item.text;
    button.addEventListener("click", () => {
      variation.push(item.action);
      refreshLegal();
    });
    box.appendChild(button);
  }
  if (!body.legal.length) box.textContent = "The hand is over at the end of this line.";
}

function seatName(seat) {
  const found = table.seats.find((s) => s.seat === seat);
  return found ? found.name : `seat ${seat}`;
}

function describe(action) {
  for (const verb of ["call", "partner", "nominate"]) if (verb in action) return `${verb === "call" ? "" : verb + " "}${action[verb]}`;
  if ("discard" in action) return `discard ${action.discard.join(" ")}`;
  return `play ${action.play}${action.suit ? " " + action.suit : ""}`;
}

async function send(method, url, body) {
  const response = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf() },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  if (response.status === 204) return { ok: true };
  const data = await response.json().catch(() => null);
  return { ok: response.ok, data };
}

if (form) {
  document.getElementById("note-target").addEventListener("change", () => {
    variation = [];
    refreshLegal();
  });
  document.getElementById("variation-undo").addEventListener("click", () => {
    variation.pop();
    refreshLegal();
  });
  document.getElementById("variation-clear").addEventListener("click", () => {
    variation = [];
    refreshLegal();
  });
  document.getElementById("variation-add").addEventListener("click", async () => {
    const input = document.getElementById("variation-next");
    if (!input.value.trim()) return;
    const body = await legal({ next: input.value.trim() });
    if (body.problem) {
      setError(body.problem);
      return;
    }
    setError("");
    variation.push(body.added);
    input.value = "";
    refreshLegal();
  });
  cardsInput.addEventListener("input", markCards);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    setError("");
    const id = document.getElementById("note-id").value;
    const payload = {
      glyph: document.getElementById("note-glyph").value,
      text: document.getElementById("note-text").value,
      cards: pickedCards(),
      visibility: document.getElementById("note-visibility").value,
    };
    let result;
    if (id) {
      result = await send("PATCH", form.dataset.noteApi.replace(/0\/$/, `${id}/`), payload);
    } else {
      const spot = target();
      if (!spot) {
        setError("No action has been played yet at this position: annotate the hand or the game.");
        return;
      }
      result = await send("POST", form.dataset.api, { ...payload, ...spot, variation });
    }
    if (!result.ok) {
      setError(errorText(result.data));
      return;
    }
    location.reload();
  });

  document.getElementById("note-cancel").addEventListener("click", () => {
    document.getElementById("note-id").value = "";
    document.getElementById("note-cancel").hidden = true;
    form.reset();
  });

  document.addEventListener("click", async (event) => {
    const edit = event.target.closest(".note-edit");
    if (edit) {
      document.getElementById("note-id").value = edit.dataset.note;
      document.getElementById("note-text").value = edit.dataset.text;
      document.getElementById("note-glyph").value = edit.dataset.glyph;
      document.getElementById("note-visibility").value = edit.dataset.visibility;
      document.getElementById("note-cancel").hidden = false;
      document.getElementById("note-text").focus();
      return;
    }
    const remove = event.target.closest(".note-delete");
    if (remove) {
      const result = await send("DELETE", form.dataset.noteApi.replace(/0\/$/, `${remove.dataset.note}/`));
      if (!result.ok) setError(errorText(result.data));
      else location.reload();
    }
  });
  refreshLegal();
}
markCards();
followMoves();
