"""Realistic, deterministic conversation text harvested from documents already on this machine.

Random words compress and tokenize unlike real chat, which skews FTS5 (and especially trigram) index costs,
so messages are built from real prose: the Markdown docs shipped inside installed Python packages (the
hermes-agent plugins and skills among them), package descriptions from ``METADATA``, Debian ``README``s,
and Vim's tutor in a dozen languages (Chinese, Japanese, Korean, Vietnamese, Russian, Greek, ...). The harvest
is cached in ``bench/data/corpus.json``; turns are composed with a seeded RNG, so every run stores the same
bytes.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import sys
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent / "data"
CACHE = DATA_DIR / "corpus.json"
VIM_TUTOR_DIRS = sorted(Path("/usr/share/vim").glob("vim*/tutor"))
# Tool names the agent really registers, so tool_calls look like the agent's own.
TOOL_NAMES = (
    "terminal",
    "read_file",
    "write_file",
    "patch",
    "search_files",
    "web_search",
    "web_extract",
    "session_search",
    "memory",
    "todo",
    "skill_view",
    "browser_navigate",
)
# Share of sessions written in a language other than English.
FOREIGN_SHARE = 0.2
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")
_MD_NOISE = re.compile(r"!\[[^\]]*\]\([^)]*\)|<[^>]+>|`{3}.*?`{3}", re.S)
_MD_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")


def _site_packages() -> Path:
    return Path(sysconfig.get_paths()["purelib"])


def _read(path: Path) -> str:
    try:
        raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        return raw.decode("utf-8")
    except (OSError, UnicodeDecodeError, EOFError, gzip.BadGzipFile):
        return ""


def _paragraphs(text: str) -> list[str]:
    """Prose paragraphs: Markdown noise stripped, code, tables and headings dropped."""
    text = _MD_LINK.sub(r"\1", _MD_NOISE.sub(" ", text))
    out = []
    for block in re.split(r"\n\s*\n", text):
        lines = [ln.strip() for ln in block.splitlines()]
        if not lines or any(
            ln.startswith(("|", "    ", "$", ">>>", "#!", "```")) for ln in block.splitlines()
        ):
            continue
        para = " ".join(ln.lstrip("#*-> ").strip() for ln in lines if ln)
        para = re.sub(r"\s+", " ", para).strip()
        letters = sum(ch.isalpha() for ch in para)
        if 40 <= len(para) <= 1500 and letters >= 0.6 * len(para):
            out.append(para)
    return out


def _metadata_description(path: Path) -> str:
    text = _read(path)
    _, _, body = text.partition("\n\n")
    return body


def harvest() -> dict[str, list[str]]:
    """Paragraphs by language code ("en" for the English documents, the tutor's suffix otherwise)."""
    english: list[str] = []
    site = _site_packages()
    for md in sorted(site.rglob("*.md")):
        english += _paragraphs(_read(md))
    for meta in sorted(site.glob("*.dist-info/METADATA")):
        english += _paragraphs(_metadata_description(meta))
    for readme in sorted(Path("/usr/share/doc").glob("*/README*")):
        english += _paragraphs(_read(readme))
    by_lang: dict[str, list[str]] = {"en": sorted(set(english))}
    for tutor_dir in VIM_TUTOR_DIRS:
        for tutor in sorted(tutor_dir.glob("tutor.*.utf-8")):
            lang = tutor.name.split(".")[1]
            paras = _paragraphs(_read(tutor))
            if len(paras) >= 20:
                by_lang[lang] = paras
    return by_lang


def load() -> dict[str, list[str]]:
    """The harvest, from the cache when present."""
    if CACHE.exists():
        cached: dict[str, list[str]] = json.loads(CACHE.read_text())
        return cached
    by_lang = harvest()
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    CACHE.write_text(json.dumps(by_lang, ensure_ascii=False))
    return by_lang


def _sentences(paragraph: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(paragraph) if len(s.strip()) > 3]


@dataclass
class Conversation:
    """Composes turns of one session in one language."""

    rng: random.Random
    paragraphs: list[str]
    call_seq: int = 0

    def _para(self) -> str:
        return self.paragraphs[self.rng.randrange(len(self.paragraphs))]

    def user(self) -> dict[str, Any]:
        """A user turn: a question or instruction of one to three sentences."""
        sentences = _sentences(self._para()) or [self._para()]
        start = self.rng.randrange(len(sentences))
        text = " ".join(sentences[start : start + self.rng.randint(1, 3)])
        return {"role": "user", "content": text}

    def assistant(self) -> dict[str, Any]:
        """An assistant answer of one to three paragraphs."""
        text = "\n\n".join(self._para() for _ in range(self.rng.randint(1, 3)))
        return {"role": "assistant", "content": text, "finish_reason": "stop"}

    def tool_round(self) -> list[dict[str, Any]]:
        """An assistant turn calling one or two tools, and the tools' outputs."""
        calls: list[dict[str, Any]] = []
        for _ in range(self.rng.choice((1, 1, 1, 2))):
            self.call_seq += 1
            name = self.rng.choice(TOOL_NAMES)
            args = {"query": " ".join(self._para().split()[:8])}
            calls.append(
                {
                    "id": f"call_{self.rng.getrandbits(48):012x}",
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)},
                }
            )
        turns: list[dict[str, Any]] = [
            {"role": "assistant", "content": "", "tool_calls": calls, "finish_reason": "tool_calls"}
        ]
        for call in calls:
            output = "\n".join(self._para() for _ in range(self.rng.randint(1, 4)))
            turns.append(
                {
                    "role": "tool",
                    "content": output,
                    "tool_call_id": call["id"],
                    "tool_name": call["function"]["name"],
                }
            )
        return turns

    def turns(self) -> Iterator[dict[str, Any]]:
        """An endless exchange: user, optional tool rounds, assistant answer, repeat."""
        while True:
            yield self.user()
            while self.rng.random() < 0.35:
                yield from self.tool_round()
            yield self.assistant()


class Corpus:
    """Seeded source of conversations."""

    def __init__(self, seed: int = 42) -> None:
        self.by_lang = load()
        self.rng = random.Random(seed)
        self.foreign = sorted(lang for lang in self.by_lang if lang != "en")

    def conversation(self) -> Conversation:
        """A conversation in English, or (FOREIGN_SHARE of the time) in another harvested language."""
        lang = "en"
        if self.foreign and self.rng.random() < FOREIGN_SHARE:
            lang = self.rng.choice(self.foreign)
        return Conversation(random.Random(self.rng.getrandbits(64)), self.by_lang[lang])

    def messages(self, n: int) -> list[dict[str, Any]]:
        """``n`` consecutive turns of one conversation."""
        turns = self.conversation().turns()
        return [next(turns) for _ in range(n)]


def main() -> None:
    """Print what was harvested and a sample conversation."""
    corpus = Corpus()
    for lang, paras in sorted(corpus.by_lang.items()):
        print(f"{lang:6} {len(paras):6} paragraphs {sum(map(len, paras)):9} chars", file=sys.stderr)
    for turn in corpus.messages(8):
        print(json.dumps(turn, ensure_ascii=False)[:300])


if __name__ == "__main__":
    main()
