"""The search columns, functions and indexes of the PostgreSQL backend (``SEARCH_DDL``, idempotent).

What SQLite's two FTS5 tables do, PostgreSQL does with a stored ``tsvector`` and ``pg_trgm``:

* words (``messages_fts``, ``unicode61``): ``messages.search_vector``, a stored generated column over the
  same document as the agent's triggers index (``content || ' ' || tool_name || ' ' || tool_calls``), with a
  GIN index. The text search configuration ``hs_search`` is ``simple`` plus ``unaccent``: ``unicode61``
  folds case and removes diacritics, so ``cafe`` finds ``café``. The document is cut into words the way
  ``unicode61`` cuts it before PostgreSQL's parser sees it (every run of characters other than letters
  and digits becomes one space), otherwise the parser would keep ``foo.bar``, ``a/b.py`` or an e-mail
  address as single tokens that the words ``foo`` or ``py`` never match.
* substrings (``messages_fts_trigram``): a ``gin_trgm_ops`` index on the same document, answering the
  ``ILIKE`` conditions of CJK terms (and symbols) of three characters or more.
* the listing's search (``GET /sessions?q=``, SQLite's ``hs_list_search``): ``gin_trgm_ops`` indexes on
  a session's id and title, and on the preview-sized head of user messages, each through ``hs_list_text``
  (:data:`LIST_TEXT_FROM`). ``pg_trgm`` keeps only letters and digits: every other character ends a word,
  so a term's spaces and punctuation narrow nothing (``Here's an`` asks for words starting ``he``, ``s``
  and ``an``). SQLite's trigram tokenizer keeps every character. ``hs_list_text`` maps the commonest of
  these characters, in the text and in the term alike, to letters of a script users do not write (Yi
  syllables), so that ``s a`` becomes one word whose trigrams are rare. A term is still found wherever its
  text is (the same map on both sides); the letters only join words. In a database whose ``LC_CTYPE`` does
  not class them as letters (``C``), they split words as the characters did, and the index narrows as
  much as plain ``pg_trgm`` does.

Indexing can wait: ``messages.hs_search_ready`` is 1 for a row indexed as it was written (every write but a
big sync batch or import), 0 for one left to the background indexer (``PgIndexing``), which sets it in
slices. A sync batch writes the column; an import sets :data:`DEFER_SETTING` for its transaction, which the
column's default reads. The generated column is only computed, and the two message search indexes only
hold the row, once it is 1. The waiting rows' ids are queued as runs in ``hs_fts_backlog``, as on SQLite,
and the indexer shrinks them. Until then word and trigram search miss the row, as SQLite's search misses
its FTS backlog, and discover says how many wait.

Only the first :data:`MAX_WORD_CHARS` characters of a message go into its ``tsvector`` (PostgreSQL caps a
``tsvector`` at 1 MB and an oversized one would make the insert fail); the substring index has no cap.
"""

from __future__ import annotations

from typing import Any

import psycopg

# Characters of a message that are cut into words; beyond, a message is still found by substrings.
MAX_WORD_CHARS = 200_000
# The preview the listing shows is the first user message cut to this many characters (PREVIEW_RAW_SQL).
PREVIEW_CHARS = 63
TS_CONFIG = "hs_search"
# A message stored by a bulk write (a big sync batch) waits for the background indexer: its search column is
# NULL and the search indexes leave it out until the indexer sets the flag, as SQLite's FTS backlog does.
READY = "hs_search_ready = 1"
PENDING = "hs_search_ready = 0"
PENDING_LIST_INDEXES = (
    "idx_messages_search_vector",
    "idx_messages_search_trgm",
    "idx_messages_list_text_trgm",
    "idx_sessions_list_text_trgm",
)
"""The GIN indexes appends and new sessions feed, whose pending lists the leader merges
(``pending_lists``)."""
DEFER_SETTING = "hermes.search_deferred"
"""A transaction that sets this to ``on`` (an import deferring its indexing) stores its rows waiting."""
READY_DEFAULT = f"(CASE WHEN current_setting('{DEFER_SETTING}', true) = 'on' THEN 0 ELSE 1 END)"
LIST_TEXT_FROM = " _-./:'\"`,()#@=?"
"""The characters ``hs_list_text`` turns into letters: each of these a term holds is a trigram's worth of
information the plain ``pg_trgm`` index throws away. A short list: the function costs in proportion to it,
for every row the index's matches are checked on. The letters are none of these, so replacing the
characters one after another maps each exactly once."""
LIST_TEXT_TO = "".join(chr(0xA000 + i) for i in range(len(LIST_TEXT_FROM)))
LIST_TEXT = str.maketrans(LIST_TEXT_FROM, LIST_TEXT_TO)
"""``hs_list_text`` in Python, for the listing's terms."""


def _replaced(expr: str) -> str:
    for char, letter in zip(LIST_TEXT_FROM, LIST_TEXT_TO, strict=True):
        quoted = char.replace("'", "''")
        expr = f"replace({expr}, '{quoted}', '{letter}')"
    return expr


LIST_TEXT_DDL = f"""CREATE OR REPLACE FUNCTION hs_list_text(t text)
    RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN {_replaced("t")}"""
"""One ``replace`` per character, not ``translate``: on the listing's texts a chain of ``replace`` (each a
fast search for one character) cost a fraction of what ``translate`` (a lookup of every character in the
list) did (docs/search.md), and every insert of a user message and every check of a
candidate pays it."""
LIST_SESSION_TEXT = "hs_list_text(id || ' ' || COALESCE(title, ''))"
"""The listing's indexed text of a session: its id and title (a term spanning both only adds a candidate)."""
LIST_PREVIEW_TEXT = "hs_list_text(hs_list_preview(content))"
"""The listing's indexed text of a user message: the head the preview shows."""
LIST_PREVIEW_ROWS = "role = 'user' AND active = 1 AND content IS NOT NULL"
"""The messages a preview may come from."""
LIST_INDEXED_ROWS = f"{LIST_PREVIEW_ROWS} AND {READY}"
"""The messages the listing's trigram index holds: those a preview may come from, once indexed. A big sync
batch's or import's rows wait for the background indexer here too (its entries were most of the database's
cost of a synced row); until then the listing's candidates read them through the backlog's runs."""
CJK_RANGES = ((0x2E80, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF), (0x20000, 0x3134F))
"""The code points of CJK scripts (radicals, punctuation, kana, ideographs, Hangul, full-width forms): one-
and two-character terms of these are searched by a scan of the rows holding any (``idx_messages_cjk``)."""
CJK_CLASS = "[" + "".join(f"{chr(low)}-{chr(high)}" for low, high in CJK_RANGES) + "]"
CJK_ROWS = "hs_has_cjk(m.content, m.tool_name, m.tool_calls)"
"""The condition that makes a scan read ``idx_messages_cjk`` (the index's predicate, on alias ``m``)."""


def _cjk_in(column: str) -> str:
    return f"(octet_length({column}) <> length({column}) AND {column} ~ '{CJK_CLASS}') IS TRUE"


CJK_DDL = (
    """CREATE OR REPLACE FUNCTION hs_has_cjk(content text, tool_name text, tool_calls text)
    RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
BEGIN
    RETURN """
    + " OR ".join(_cjk_in(column) for column in ("content", "tool_name", "tool_calls"))
    + """;
END
$fn$""",
    "CREATE INDEX IF NOT EXISTS idx_messages_cjk ON messages (id)"
    " WHERE hs_has_cjk(content, tool_name, tool_calls)",
)
"""The ids of the messages holding a CJK character. A term of one or two CJK characters has no trigram
to look up, so it is searched by scanning windows of ids; in a history mostly in other scripts the scan
then reads the few rows that can hold it rather than every row. The regular expression only runs on text
that is not all ASCII (``octet_length`` against ``length``, a byte count), so an insert of an ASCII
message pays two length counts. ``hs_has_cjk`` is plpgsql so that the planner cannot inline it: inlined,
it estimated the regular expression's selectivity by running it over the column statistics of all three
columns, planning that cost many times the scan step it planned. A plpgsql body resolves names when it runs,
with the caller's ``search_path``, and autovacuum's ``ANALYZE`` and ``pg_restore`` evaluate the index's
predicate with an empty one: so the body calls only built-in functions (found in ``pg_catalog`` whatever
the path), none of ours."""


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a character of :data:`CJK_RANGES` (``hs_has_cjk``'s test, in Python)."""
    return any(low <= ord(c) <= high for c in text for low, high in CJK_RANGES)


SEARCH_DDL: tuple[str, ...] = (
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE EXTENSION IF NOT EXISTS unaccent",
    f"""DO $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM pg_ts_config
        WHERE cfgname = '{TS_CONFIG}' AND cfgnamespace = current_schema()::regnamespace
    ) THEN
        CREATE TEXT SEARCH CONFIGURATION {TS_CONFIG} (COPY = simple);
        ALTER TEXT SEARCH CONFIGURATION {TS_CONFIG}
            ALTER MAPPING FOR word, hword, hword_part, numword, numhword WITH unaccent, simple;
    END IF;
END
$$""",
    """CREATE OR REPLACE FUNCTION hs_search_doc(content text, tool_name text, tool_calls text)
    RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN COALESCE(content, '') || ' ' || COALESCE(tool_name, '') || ' ' || COALESCE(tool_calls, '')""",
    f"""CREATE OR REPLACE FUNCTION hs_search_words(doc text)
    RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN regexp_replace(left(doc, {MAX_WORD_CHARS}), '[^[:alnum:]]+', ' ', 'g')""",
    f"""CREATE OR REPLACE FUNCTION hs_list_preview(content text)
    RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN replace(replace(left(content, {PREVIEW_CHARS}), chr(10), ' '), chr(13), ' ')""",
    LIST_TEXT_DDL,
    "ALTER TABLE messages ADD COLUMN IF NOT EXISTS hs_search_ready smallint NOT NULL"
    f" DEFAULT {READY_DEFAULT}",
    f"""ALTER TABLE messages ADD COLUMN IF NOT EXISTS search_vector tsvector GENERATED ALWAYS AS (
    CASE WHEN hs_search_ready = 1 THEN
        to_tsvector('{TS_CONFIG}'::regconfig, hs_search_words(hs_search_doc(content, tool_name, tool_calls)))
    END
) STORED""",
    "CREATE INDEX IF NOT EXISTS idx_messages_search_vector ON messages"
    f" USING gin (search_vector) WHERE {READY}",
    "CREATE INDEX IF NOT EXISTS idx_messages_search_trgm ON messages"
    f" USING gin (hs_search_doc(content, tool_name, tool_calls) gin_trgm_ops) WHERE {READY}",
    "CREATE TABLE IF NOT EXISTS hs_fts_backlog (first_id bigint PRIMARY KEY, last_id bigint NOT NULL,"
    " queued_at double precision NOT NULL)",
    "CREATE INDEX IF NOT EXISTS idx_messages_list_text_trgm ON messages"
    f" USING gin ({LIST_PREVIEW_TEXT} gin_trgm_ops) WHERE {LIST_INDEXED_ROWS}",
    "CREATE INDEX IF NOT EXISTS idx_sessions_list_text_trgm ON sessions"
    f" USING gin ({LIST_SESSION_TEXT} gin_trgm_ops)",
    # On ``lower(id)``, not ``id``: pg_trgm's operator class also answers ``=``, and a planner without
    # fresh statistics chose a trigram index on the bare column for ``id = ANY(...)`` over the primary key
    # (seconds per lookup of a batch of ids). Prefix resolution matches ``lower(id) LIKE lower(pattern)``,
    # which is how PostgreSQL computes ``id ILIKE pattern``.
    "CREATE INDEX IF NOT EXISTS idx_sessions_id_lower_trgm ON sessions USING gin (lower(id) gin_trgm_ops)",
    *CJK_DDL,
)


def apply_search_schema(conn: psycopg.Connection[Any]) -> None:
    """Run :data:`SEARCH_DDL` on a psycopg connection (in the caller's transaction)."""
    for statement in SEARCH_DDL:
        conn.execute(statement)
