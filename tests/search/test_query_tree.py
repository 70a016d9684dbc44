"""The query tree reads a sanitised query as FTS5 does: every query over a small vocabulary matches the
same documents under the tree as under FTS5 itself, and the tree refuses exactly what FTS5 refuses."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.fts_query import word_snippet
from app.domain.query_tree import AllOf, AnyOf, Node, Phrase, Without, parse, wanted_words, words
from app.storage.sqlite.driver import sqlite3

_DOCS = [" ".join(combo) for n in range(4) for combo in itertools.combinations("abcd", n)] + [
    "a_b",
    "café au lait",
    "x.y z",
    "dog lazy",
    "lazy dog",
    "abc abd",
]


@pytest.fixture(scope="module")
def fts() -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(x)")
    conn.executemany("INSERT INTO f(rowid, x) VALUES (?, ?)", list(enumerate(_DOCS)))
    yield conn
    conn.close()


def _fold(word: str) -> str:
    return word.lower().replace("é", "e")


def _matches(node: Node, doc: tuple[str, ...]) -> bool:
    if isinstance(node, Phrase):
        want = [_fold(w) for w in node.words]
        for start in range(len(doc) - len(want) + 1):
            window = doc[start : start + len(want)]
            head_ok = all(a == b for a, b in zip(window[:-1], want[:-1], strict=True))
            last = window[-1].startswith(want[-1]) if node.prefix else window[-1] == want[-1]
            if head_ok and last:
                return True
        return False
    if isinstance(node, AllOf):
        return all(_matches(part, doc) for part in node.parts)
    if isinstance(node, AnyOf):
        return any(_matches(part, doc) for part in node.parts)
    assert isinstance(node, Without)
    return _matches(node.keep, doc) and not _matches(node.drop, doc)


def _tree_result(query: str) -> list[int] | None:
    parsed = parse(query)
    if parsed is None:
        return None
    if parsed.tree is None:
        return []
    tree = parsed.tree
    return [i for i, doc in enumerate(_DOCS) if _matches(tree, tuple(_fold(w) for w in words(doc)))]


def _fts_result(conn: sqlite3.Connection, query: str) -> list[int] | None:
    try:
        rows = conn.execute("SELECT rowid FROM f WHERE f MATCH ? ORDER BY rowid", (query,)).fetchall()
    except sqlite3.OperationalError:
        return None
    return [int(r[0]) for r in rows]


@pytest.mark.parametrize(
    "query",
    [
        "a NOT b c",
        "a NOT b OR c",
        "a OR b NOT c",
        "a b OR c d",
        "a NOT b NOT c",
        "a NOT b AND c",
        "a AND b OR c",
        "a OR b c",
        "a NOT b c OR d",
        "a AND NOT b",
        "a OR NOT b",
        "NOT",
        '"..."',
        'a "..."',
        'a OR "..."',
        'a NOT "..."',
        '"..." NOT a',
        'a AND "..."',
        '"..." AND a OR b',
        "a _",
        "a*b",
        "cafe",
        '"x.y"*',
        "a$",
        'a "b"c',
        '"lazy dog"',
        '"a b"* c',
        "ab*",
        "and or",
        "a OR",
    ],
)
def test_the_tree_matches_what_fts5_matches(fts: sqlite3.Connection, query: str) -> None:
    assert _tree_result(query) == _fts_result(fts, query)


_PIECES = st.sampled_from(
    ["a", "b", "c", "d", "ab*", "AND", "OR", "NOT", '"a b"', '"b c"*', '"..."', "lazy", "dog", "x"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, min_size=1, max_size=7))
def test_any_operator_sequence_agrees_with_fts5(fts: sqlite3.Connection, pieces: list[str]) -> None:
    query = " ".join(pieces)
    assert _tree_result(query) == _fts_result(fts, query)


def test_words_are_cut_like_unicode61() -> None:
    assert words("foo.bar my_var naïve 中文 x½ 🎉ok") == (
        "foo",
        "bar",
        "my",
        "var",
        "naïve",
        "中文",
        "x½",
        "ok",
    )


def test_wanted_words_leave_out_what_not_drops() -> None:
    parsed = parse('"tab complete" OR docker* NOT podman')
    assert parsed is not None and parsed.tree is not None
    assert wanted_words(parsed.tree) == [("tab", False), ("complete", False), ("docker", True)]


@pytest.mark.parametrize(
    ("text", "words", "expected"),
    [
        ("apt install docker.io", [("docker", False)], "apt install >>>docker<<<.io"),
        ("Docker/compose.yml", [("docker", False)], ">>>Docker<<</compose.yml"),
        ("a dockerfile and docker_x", [("docker", False)], "a dockerfile and >>>docker<<<_x"),
        ("see the dockerfile", [("docker", True)], "see the >>>dockerfile<<<"),
        ("Tiếng Việt", [("tieng", False)], None),
        (
            "mail me at ana@example.org",
            [("nothing", False), ("example", False)],
            "mail me at ana@>>>example<<<.org",
        ),
    ],
)
def test_word_snippet_marks_a_word_where_the_index_cut_one(
    text: str, words: list[tuple[str, bool]], expected: str | None
) -> None:
    assert word_snippet(text, words) == expected
