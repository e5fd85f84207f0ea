"""IDENTITY.md: the agent's name and avatar, and which avatars the dashboard may embed."""

from __future__ import annotations

import base64
import os

import pytest
from dashboard_fixtures import png_bytes

from hippocampus.published.identity import (
    check_data_uri,
    clean_value,
    identity_from,
    parse_fields,
    read_identity,
    sniff_image,
    AVATAR_MAX_BYTES,
)

TEMPLATE = """# IDENTITY.md - Who Am I?

*Fill this in during your first conversation. Make it yours.*

- **Name:** *(pick something you like)*
- **Creature:** _(AI? robot? familiar? ghost in the machine?)_
- **Vibe:**
- **Emoji:** TBD
- **Avatar:** *(workspace-relative path, http(s) URL, or data URI)*
"""


def png_uri(data: bytes | None = None) -> str:
    return "data:image/png;base64," + base64.b64encode(data or png_bytes()).decode("ascii")


def identity(tmp_path, avatar: str, name: str = "Nova"):
    return identity_from(f"- **Name:** {name}\n- **Avatar:** {avatar}\n", tmp_path)


def test_the_name_is_read_whatever_the_case_of_its_label(tmp_path):
    for line in ("- **Name:** Nova", "- **NAME:** Nova", "* **name**: Nova", "**Name:**Nova", "  - **nAmE** : Nova"):
        assert identity_from(line + "\n", tmp_path).name == "Nova", line


def test_the_untouched_template_gives_no_name_emoji_or_avatar(tmp_path):
    found = identity_from(TEMPLATE, tmp_path)
    assert (found.name, found.creature, found.vibe, found.emoji, found.avatar, found.avatar_url) == (None,) * 6
    assert found.notes == []


@pytest.mark.parametrize(
    "value",
    [
        "",
        "   ",
        "TBD",
        "tbd",
        "*(pick something you like)*",
        "_(pick one)_",
        "(none)",
        "<name>",
        "[your name]",
        "N/A",
        "?",
    ],
)
def test_placeholders_count_as_unset(value):
    assert clean_value(value) is None


def test_emphasis_around_a_real_value_is_removed_and_the_first_value_wins():
    fields = parse_fields("- **Name:** *Nova*\n- **Name:** Other\n- **Vibe:** `calm`\n")
    assert fields == {"name": "Nova", "vibe": "calm"}


def test_a_placeholder_does_not_hide_a_later_real_value():
    assert parse_fields("- **Name:** *(pick something)*\n- **Name:** Nova\n") == {"name": "Nova"}


def test_a_png_inside_the_workspace_is_embedded_as_a_data_uri(tmp_path):
    (tmp_path / "avatars").mkdir()
    (tmp_path / "avatars" / "nova.png").write_bytes(png_bytes())
    found = identity(tmp_path, "avatars/nova.png")
    assert found.avatar == png_uri()
    assert found.notes == []


def test_an_absolute_path_inside_the_workspace_and_a_markdown_image_are_embedded(tmp_path):
    (tmp_path / "nova.png").write_bytes(png_bytes())
    assert identity(tmp_path, str(tmp_path / "nova.png")).avatar == png_uri()
    assert identity(tmp_path, "![me](nova.png)").avatar == png_uri()


def test_an_avatar_path_that_leaves_the_workspace_is_ignored(tmp_path):
    root = tmp_path / "workspace"
    root.mkdir()
    (tmp_path / "secret.png").write_bytes(png_bytes())
    for value in ("../secret.png", str(tmp_path / "secret.png"), "~/secret.png", "sub/../../secret.png"):
        found = identity(root, value)
        assert found.avatar is None, value
        assert found.notes and "IDENTITY.md" in found.notes[0]


def test_a_symlink_inside_the_workspace_pointing_outside_is_ignored(tmp_path):
    root = tmp_path / "workspace"
    root.mkdir()
    (tmp_path / "secret.png").write_bytes(png_bytes())
    os.symlink(tmp_path / "secret.png", root / "avatar.png")
    found = identity(root, "avatar.png")
    assert found.avatar is None
    assert "outside the workspace" in found.notes[0]


def test_a_file_that_is_not_an_image_is_never_embedded(tmp_path):
    (tmp_path / "notes.png").write_text("password=hunter2\n", encoding="utf-8")
    (tmp_path / "IDENTITY.md").write_text("- **Avatar:** IDENTITY.md\n", encoding="utf-8")
    assert identity(tmp_path, "notes.png").avatar is None
    assert read_identity(tmp_path / "IDENTITY.md", tmp_path).avatar is None
    assert identity(tmp_path, "memory").avatar is None  # a folder
    assert identity(tmp_path, "missing.png").avatar is None


def test_an_image_larger_than_the_limit_is_not_embedded(tmp_path):
    (tmp_path / "big.png").write_bytes(png_bytes() + b"\0" * AVATAR_MAX_BYTES)
    found = identity(tmp_path, "big.png")
    assert found.avatar is None
    assert "512 KiB" in found.notes[0]


def test_image_types_are_recognised_by_their_first_bytes():
    assert sniff_image(png_bytes()) == "png"
    assert sniff_image(b"\xff\xd8\xff\xe0" + b"\0" * 20) == "jpeg"
    assert sniff_image(b"GIF89a" + b"\0" * 20) == "gif"
    assert sniff_image(b"RIFF\x10\0\0\0WEBPVP8 ") == "webp"
    assert sniff_image(b'<?xml version="1.0"?>\n<!-- drawn by hand -->\n<svg xmlns="x">') == "svg"
    assert sniff_image(b"<html><svg>") is None
    assert sniff_image(b"hello") is None


def test_an_svg_file_is_embedded_only_as_an_image_data_uri(tmp_path):
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    (tmp_path / "a.svg").write_bytes(svg)
    found = identity(tmp_path, "a.svg")
    assert found.avatar == "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


def test_a_data_uri_is_kept_only_for_a_base64_png_jpeg_gif_or_webp_that_holds_that_image(tmp_path):
    assert identity(tmp_path, png_uri()).avatar == png_uri()
    svg = "data:image/svg+xml;base64," + base64.b64encode(b"<svg onload='x'/>").decode()
    rejected = [
        svg,
        "data:text/html;base64,PHNjcmlwdD4=",
        "data:image/png,rawbytes",
        "data:image/png;base64,not base64!!",
        "data:image/jpeg;base64," + base64.b64encode(png_bytes()).decode(),  # says JPEG, holds PNG
        'data:image/png;base64,AAAA" onerror="x',
    ]
    for value in rejected:
        found = identity(tmp_path, value)
        assert found.avatar is None, value
        assert found.notes, value


def test_a_data_uri_larger_than_the_limit_is_refused():
    big = png_uri(png_bytes() + b"\0" * AVATAR_MAX_BYTES)
    assert check_data_uri(big) == (None, "the avatar data URI is larger than 512 KiB")


def test_an_http_url_is_kept_as_a_link_and_never_as_an_image(tmp_path):
    found = identity(tmp_path, "https://example.org/nova.png")
    assert found.avatar_url == "https://example.org/nova.png"
    assert found.avatar is None


@pytest.mark.parametrize(
    "value",
    [
        "javascript:alert(1)",
        "file:///etc/passwd",
        "ftp://host/a.png",
        'https://example.org/a.png" onerror="x',
        "https://",
        "http://exa mple.org/a",
    ],
)
def test_other_schemes_and_odd_urls_are_ignored(tmp_path, value):
    found = identity(tmp_path, value)
    assert found.avatar is None and found.avatar_url is None
    assert found.notes


def test_a_missing_identity_file_gives_an_empty_identity(tmp_path):
    found = read_identity(tmp_path / "IDENTITY.md", tmp_path)
    assert found.name is None and found.notes == []


def test_a_long_name_is_shortened_and_a_sentence_is_not_taken_for_an_emoji(tmp_path):
    found = identity_from("- **Name:** " + "N" * 300 + "\n- **Emoji:** a whole sentence here\n", tmp_path)
    assert len(found.name) == 80 and found.name.endswith("…")
    assert found.emoji is None
