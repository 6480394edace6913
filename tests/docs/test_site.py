"""The documentation builds: `mkdocs build --strict` (mkdocs.yml) fails on any warning, so a
broken link, a missing anchor or image, or a page left out of the navigation fails this test.
And the README, the repository's front page (read outside the site), links only to files that
exist."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_site_builds_without_a_warning(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    built = tmp_path / "site"
    for page in ("index.html", "players/index.html", "operators/index.html", "api/index.html",
                 "architecture/index.html", "games/babel-rulings/index.html"):
        assert (built / page).is_file(), page
    assert (built / "api" / "openapi.yaml").is_file()


def test_the_readme_links_to_files_that_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r'\]\(([^)#\s]+)[^)]*\)', readme) + re.findall(r'src="([^"]+)"', readme)
    local = [t for t in targets if not re.match(r"[a-z]+://", t)]
    assert any(t.startswith("docs/screenshots/") for t in local)
    missing = [t for t in local if not (ROOT / t).exists()]
    assert missing == []


def test_the_readme_starts_with_the_two_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^(make \w+)", readme, re.M)
    assert commands[:2] == ["make run", "make test"]
    assert len(readme.splitlines()) <= 200
