"""The agent's name and avatar from OpenClaw's IDENTITY.md (read only). Parsing is pure; reading is thin.

IDENTITY.md is a Markdown list such as `- **Name:** Nova` and `- **Avatar:** avatars/nova.png`. Labels are
case-insensitive; template placeholders (`*(pick something you like)*`, `TBD`, empty) count as unset.
The avatar may be a path inside the workspace, an http(s) URL or a `data:image/…;base64,` URI. Only real images
are embedded (checked by their first bytes, at most AVATAR_MAX_BYTES); a path that leaves the workspace, a file
that is not an image and any other URI are ignored, with a note saying why. A remote URL is never loaded by the
dashboard (it makes no network request): it is shown as a link.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

AVATAR_MAX_BYTES = 512 * 1024
IDENTITY_MAX_BYTES = 256 * 1024
TEXT_LIMIT = 80

# `- **Name:** Nova`, `* **name**: Nova`, `**NAME:** Nova`. The spaces around a colon are taken whole (`\s*+`) and
# the value's trailing spaces are left to `clean_value`: a run of spaces split every way would take time quadratic in
# its length.
_FIELD = re.compile(r"^\s*(?:[-*+]\s+)?\*\*\s*([A-Za-z][A-Za-z ]{0,30}?)\s*+(?::\s*+)?\*\*\s*+(?::\s*+)?(.*)$")
# The template's hints: `*(pick something you like)*`, `_(…)_`, `(…)`, `<…>`, `[…]` without a link target.
_PLACEHOLDER = re.compile(r"^[*_\s]*(\(.*\)|<[^>]*>|\[[^\]]*\])[*_\s]*$", re.S)
_PLACEHOLDER_WORDS = frozenset(
    {"tbd", "todo", "tba", "n/a", "na", "none", "unset", "unknown", "-", "—", "?", "…", "..."}
)
_MD_LINK = re.compile(r"^!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)$")
_DATA_URI = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/]+={0,2})$")

_MAGIC = (
    ("png", lambda b: b.startswith(b"\x89PNG\r\n\x1a\n")),
    ("jpeg", lambda b: b.startswith(b"\xff\xd8\xff")),
    ("gif", lambda b: b.startswith((b"GIF87a", b"GIF89a"))),
    ("webp", lambda b: len(b) >= 12 and b[:4] == b"RIFF" and b[8:12] == b"WEBP"),
)
_SVG_START = re.compile(
    rb"^(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*(?:<!DOCTYPE[^>]*>\s*)?<svg[\s>]", re.S | re.I
)


@dataclass
class Identity:
    """What the dashboard shows of the agent. `avatar` is a data URI safe to put in an <img>; `avatar_url` a link."""

    name: str | None = None
    emoji: str | None = None
    creature: str | None = None
    vibe: str | None = None
    avatar: str | None = None
    avatar_url: str | None = None
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "emoji": self.emoji,
            "creature": self.creature,
            "vibe": self.vibe,
            "avatar": self.avatar,
            "avatarUrl": self.avatar_url,
            "notes": self.notes,
        }


def clean_value(raw: str) -> str | None:
    """A field's value without Markdown decoration; None for a placeholder or an empty value."""
    value = raw.strip()
    if not value or _PLACEHOLDER.match(value):
        return None
    # Strip one layer of emphasis or code around the whole value: `*Nova*`, `_Nova_`, `` `Nova` ``.
    for mark in ("**", "__", "*", "_", "`"):
        if len(value) > 2 * len(mark) and value.startswith(mark) and value.endswith(mark):
            value = value[len(mark) : -len(mark)].strip()
            break
    if not value or value.casefold() in _PLACEHOLDER_WORDS or _PLACEHOLDER.match(value):
        return None
    return value


def parse_fields(text: str) -> dict[str, str]:
    """Every `**Label:** value` line, labels lower-cased, placeholders dropped; the first of each label wins."""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        match = _FIELD.match(line)
        if not match:
            continue
        label = " ".join(match.group(1).split()).casefold()
        value = clean_value(match.group(2))
        if value is not None and label not in fields:
            fields[label] = value
    return fields


def _short(value: str | None) -> str | None:
    if value is None:
        return None
    flat = " ".join(value.split())
    return flat if len(flat) <= TEXT_LIMIT else flat[: TEXT_LIMIT - 1].rstrip() + "…"


def sniff_image(data: bytes) -> str | None:
    """The image type from a file's first bytes (png, jpeg, gif, webp, svg), or None."""
    for kind, test in _MAGIC:
        if test(data):
            return kind
    if _SVG_START.match(data[:4096]):
        return "svg"
    return None


def image_data_uri(data: bytes) -> str | None:
    """A base64 data URI for image bytes, or None when they are not an image we embed or are too large.

    SVG is embedded only as an image (an <img> never runs an SVG's scripts nor loads what it links to).
    """
    if len(data) > AVATAR_MAX_BYTES:
        return None
    kind = sniff_image(data)
    if kind is None:
        return None
    mime = "image/svg+xml" if kind == "svg" else f"image/{kind}"
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def check_data_uri(value: str) -> tuple[str | None, str | None]:
    """(the data URI, None) when it is a base64 PNG/JPEG/GIF/WebP whose bytes are that image; else (None, why)."""
    compact = "".join(value.split())
    match = _DATA_URI.match(compact)
    if not match:
        return None, "the avatar data URI is not a base64 PNG, JPEG, GIF or WebP image"
    if len(compact) > AVATAR_MAX_BYTES * 4 // 3 + 64:
        return None, "the avatar data URI is larger than 512 KiB"
    try:
        data = base64.b64decode(match.group(2), validate=True)
    except (binascii.Error, ValueError):
        return None, "the avatar data URI is not valid base64"
    if sniff_image(data) != match.group(1):
        return None, f"the avatar data URI does not hold a {match.group(1).upper()} image"
    return compact, None


def check_url(value: str) -> str | None:
    """The URL if it is a plain http(s) address (shown as a link, never loaded), else None."""
    if any(ch.isspace() or ord(ch) < 32 or ch in "<>\"'`\\" for ch in value) or len(value) > 2048:
        return None
    try:
        parts = urlsplit(value)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    return value


def resolve_avatar_path(value: str, root: Path) -> tuple[str | None, str | None]:
    """Read an avatar file inside the workspace `root`: (data URI, None), or (None, why it was ignored)."""
    candidate = Path(value)
    if value.startswith("~"):
        return None, "the avatar path points outside the workspace"
    root = root.resolve()
    try:
        # resolve() follows every symlink, so a link that leads out of the workspace is caught here too.
        target = (candidate if candidate.is_absolute() else root / candidate).resolve()
    except (OSError, RuntimeError, ValueError):
        return None, "the avatar path cannot be resolved"
    if not target.is_relative_to(root):
        return None, "the avatar path points outside the workspace"
    try:
        if not target.is_file():
            return None, "the avatar file does not exist"
        with open(target, "rb") as handle:
            data = handle.read(AVATAR_MAX_BYTES + 1)
    except OSError:
        return None, "the avatar file cannot be read"
    if len(data) > AVATAR_MAX_BYTES:
        return None, "the avatar file is larger than 512 KiB"
    uri = image_data_uri(data)
    if uri is None:
        return None, "the avatar file is not a PNG, JPEG, GIF, WebP or SVG image"
    return uri, None


def identity_from(text: str, root: Path) -> Identity:
    """The identity from IDENTITY.md's text; an avatar path is looked up inside the workspace `root`."""
    fields = parse_fields(text)
    found = Identity(
        name=_short(fields.get("name")),
        emoji=_short(fields.get("emoji")),
        creature=_short(fields.get("creature")),
        vibe=_short(fields.get("vibe")),
    )
    if found.emoji and len(found.emoji) > 8:
        found.emoji = None  # a sentence, not an emoji
    value = fields.get("avatar")
    if value is None:
        return found
    link = _MD_LINK.match(value)
    if link:
        value = link.group(1)
    lowered = value.lower()
    if lowered.startswith("data:"):
        found.avatar, why = check_data_uri(value)
    elif lowered.startswith(("http://", "https://")):
        found.avatar_url = check_url(value)
        why = None if found.avatar_url else "the avatar URL is not a plain http(s) address"
    elif re.match(r"^[a-z][a-z0-9+.-]*:", lowered) and not re.match(r"^[a-z]:[\\/]", lowered):
        why = "the avatar must be a workspace path, an http(s) URL or an image data URI"
    else:
        found.avatar, why = resolve_avatar_path(value, root)
    if why:
        found.notes.append(f"IDENTITY.md: {why}; it is not shown.")
    return found


def read_identity(path: Path, root: Path) -> Identity:
    """IDENTITY.md as an Identity; a missing or unreadable file is an empty one (it is OpenClaw's, optional)."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(IDENTITY_MAX_BYTES)
    except FileNotFoundError:
        return Identity()
    except OSError:
        return Identity(notes=["IDENTITY.md cannot be read; the agent's name and avatar are not shown."])
    return identity_from(raw.decode("utf-8", errors="replace"), root)
