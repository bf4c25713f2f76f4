"""Uploads and their validation through the real sandbox."""

from __future__ import annotations

import pytest

from arena.models import BotVersion, VersionStatus
from arena.services import ArenaError, ArenaPermissionDenied, bot_create, bot_version_upload
from tests.arena.conftest import CRASHING_BOT, GOOD_BOT, ILLEGAL_BOT, SLEEPY_BOT, zip_of

pytestmark = pytest.mark.django_db(transaction=True)


def upload(owner, content: bytes, filename: str = "bot.py", entry: str = "", name: str = "b1"):
    bot = bot_create(owner=owner, name=name)
    version = bot_version_upload(
        bot=bot, user=owner, filename=filename, content=content, entry=entry
    )
    version.refresh_from_db()  # validation ran on commit (tasks are eager in tests)
    return version


def test_a_good_bot_becomes_active_with_a_private_validation_record(owner) -> None:
    version = upload(owner, GOOD_BOT)
    assert version.status == VersionStatus.ACTIVE, version.reason
    assert version.number == 1 and len(version.sha256) == 64
    record = version.validation_record
    assert record is not None and record.status == "complete"
    assert record.is_public is False and record.uploaded_by == owner
    assert version.rating.games == 0


def test_a_zip_with_a_declared_entry_module_becomes_active(owner) -> None:
    archive = zip_of({"pkg/__init__.py": b"", "pkg/brain.py": GOOD_BOT})
    version = upload(owner, archive, filename="bot.zip", entry="pkg.brain")
    assert version.status == VersionStatus.ACTIVE, version.reason
    assert version.entry == "pkg.brain"


def test_a_crashing_bot_is_rejected_with_the_fault_and_its_stderr(owner) -> None:
    version = upload(owner, CRASHING_BOT)
    assert version.status == VersionStatus.REJECTED
    assert version.fault["kind"] == "crash"
    assert "crash" in version.reason
    assert "this bot always fails" in version.stderr_tail
    assert "secret-debug-output" in version.stderr_tail
    record = version.validation_record
    assert record.data["termination"]["reason"] == "crash"
    assert record.data["result"]["reason"] == "forfeit"


def test_a_bot_that_sleeps_is_rejected_for_timeout(owner) -> None:
    version = upload(owner, SLEEPY_BOT)
    assert version.status == VersionStatus.REJECTED
    assert version.fault["kind"] == "timeout"
    assert version.validation_record.data["termination"]["reason"] == "timeout"


def test_an_illegal_action_is_rejected(owner) -> None:
    version = upload(owner, ILLEGAL_BOT)
    assert version.status == VersionStatus.REJECTED
    assert version.fault["kind"] == "illegal_action"


def test_a_new_active_version_retires_the_old_one(owner) -> None:
    first = upload(owner, GOOD_BOT)
    second = bot_version_upload(bot=first.bot, user=owner, filename="bot.py", content=GOOD_BOT)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == (VersionStatus.RETIRED, VersionStatus.ACTIVE)
    assert second.number == 2


@pytest.mark.parametrize(
    ("filename", "content", "entry", "field", "words"),
    [
        ("bot.py", b"x" * (1024 * 1024 + 1), "", "/file", "more than"),
        ("bot.py", b"", "", "/file", "empty"),
        ("bot.txt", b"print(1)", "", "/file", ".py file or a .zip"),
        ("my-bot.py", b"print(1)", "", "/file", "module name"),
        ("bot.py", b"def (:", "", "/file", "does not compile"),
        ("bot.py", b"print(1)", "pkg.main", "/entry", "entry"),
        ("bot.zip", b"not a zip", "", "/file", "not a zip"),
        ("bot.zip", zip_of({"../evil.py": b"x"}), "", "/file", "unsafe path"),
        ("bot.zip", zip_of({"/etc/evil.py": b"x"}), "", "/file", "unsafe path"),
        ("bot.zip", zip_of({"a/b.py": b"x"}), "", "/entry", "no entry module"),
        ("bot.zip", zip_of({"main.py": b"x"}), "nothere", "/entry", "not in the archive"),
        ("bot.zip", zip_of({"main.py": b"x"}), "bad name!", "/entry", "dotted Python module"),
    ],
)
def test_bad_uploads_are_refused_with_a_reason(
    owner, filename, content, entry, field, words
) -> None:
    bot = bot_create(owner=owner, name="b1")
    with pytest.raises(ArenaError) as refused:
        bot_version_upload(bot=bot, user=owner, filename=filename, content=content, entry=entry)
    assert refused.value.field == field
    assert words in refused.value.message
    assert not BotVersion.objects.exists()


def test_a_zip_bomb_is_refused(owner) -> None:
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("main.py", b"#" * (6 * 1024 * 1024))
    bot = bot_create(owner=owner, name="b1")
    with pytest.raises(ArenaError, match="unpacks to more than"):
        bot_version_upload(bot=bot, user=owner, filename="bomb.zip", content=buffer.getvalue())


def test_only_the_owner_uploads_and_only_bot_owners_create(owner, rival, outsider) -> None:
    bot = bot_create(owner=owner, name="b1")
    with pytest.raises(ArenaPermissionDenied):
        bot_version_upload(bot=bot, user=rival, filename="bot.py", content=GOOD_BOT)
    with pytest.raises(ArenaPermissionDenied):
        bot_create(owner=outsider, name="mine")


def test_bot_names_are_checked_and_unique_per_owner(owner, rival) -> None:
    bot_create(owner=owner, name="alpha")
    bot_create(owner=rival, name="alpha")  # another owner may use the name
    with pytest.raises(ArenaError, match="already have"):
        bot_create(owner=owner, name="ALPHA")
    with pytest.raises(ArenaError, match="1 to 40"):
        bot_create(owner=owner, name="no spaces please")
