"""SKILL.md is a valid OpenClaw skill file and documents every script, and every script answers --help."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml

from installing import ROOT

SKILL = ROOT / "SKILL.md"
PROGRAMS = sorted(p.name for p in (ROOT / "scripts").glob("*.py"))


def frontmatter() -> tuple[str, dict]:
    text = SKILL.read_text(encoding="utf-8")
    assert text.startswith("---\n"), "SKILL.md must open with YAML frontmatter"
    head, _, body = text[4:].partition("\n---\n")
    return head, yaml.safe_load(head) | {"_body": body}


def test_the_frontmatter_is_yaml_with_the_name_a_one_line_description_and_single_line_json_metadata():
    head, data = frontmatter()
    assert data["name"] == "hippocampus"
    assert isinstance(data["description"], str) and "\n" not in data["description"].strip()
    line = next(line for line in head.splitlines() if line.startswith("metadata:"))
    metadata = json.loads(line.split(":", 1)[1])
    assert metadata == data["metadata"]
    assert "python3" in metadata["openclaw"]["requires"]["bins"]


@pytest.mark.parametrize("program", PROGRAMS)
def test_every_script_is_documented_in_skill_md_with_its_basedir_path(program):
    assert f"{{baseDir}}/scripts/{program}" in frontmatter()[1]["_body"], f"SKILL.md does not document {program}"


@pytest.mark.parametrize("program", [f"scripts/{p}" for p in PROGRAMS] + ["install.py"])
def test_every_program_answers_help_with_exit_0(program):
    done = subprocess.run([sys.executable, str(ROOT / program), "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("usage:"), done.stderr


def test_install_is_documented_in_skill_md_and_readme():
    assert "{baseDir}/install.py" in SKILL.read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "python3 install.py\n" in readme and "python3 install.py --demo" in readme
