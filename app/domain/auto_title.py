"""The local title generator: the gist of a session's first request, in its own words and word order.

A person titling a conversation keeps what was asked and drops how it was asked: "remind me to water the
plants at 7pm" becomes "Water the plants at 7pm". So the generator takes the first sentence of the user's
message that asks for something (greetings and thanks alone do not), strips the request's frame at its
start and end (greetings, "please", "can you", "how do I", "remind me to"; 请帮我, 提醒我; を教えてください;
"làm thế nào để", "giúp tôi") and fits what remains to 3-7 words, cutting at a clause boundary first and
never ending on a dangling preposition. Chinese and Japanese have no spaces: there a title is at most
:data:`MAX_CJK_CHARS` characters, cut at punctuation where possible. Code blocks are left out and a URL
stands as its host name; a message with nothing else falls back on the reply's first sentence.

Only words of the text are used, in their order; the single exception is a frame ("Chat about ...") that
pads a one- or two-word request up to three words. The result always passes
:func:`app.domain.titles.sanitize_title`.
"""

from __future__ import annotations

import re
from enum import StrEnum

from app.domain.titles import sanitize_title

MIN_WORDS = 3
MAX_WORDS = 7
MAX_TITLE_CHARS = 60
MAX_CJK_CHARS = 16
MAX_VIETNAMESE_SYLLABLES = 10
FALLBACK_TITLE = "New conversation"


class Script(StrEnum):
    """How a text is written, which decides the frames to strip and how length is counted."""

    latin = "latin"
    vietnamese = "vietnamese"
    chinese = "chinese"
    japanese = "japanese"


# Kana and Han code point ranges; a CJK character is either.
_KANA_RANGES = r"\u3040-\u30ff"
_HAN_RANGES = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_KANA = re.compile(f"[{_KANA_RANGES}]")
_HAN = re.compile(f"[{_HAN_RANGES}]")
_CJK_CHAR = re.compile(f"[{_KANA_RANGES}{_HAN_RANGES}]")
_VIETNAMESE = re.compile(
    r"[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]|\b(?:chào|tôi|bạn|không)\b", re.IGNORECASE
)
_CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_URL = re.compile(r"\b(?:https?|ftp)://([^/\s:?#]+)\S*|\bwww\.([^/\s:?#]+)\S*")
_MARKUP = re.compile(r"^\s*(?:#+|[-*>]|\d+[.)])\s+", re.MULTILINE)
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|[\n。！？；]+")
_CLAUSE_CUT = re.compile(r"\s*(?:[,;:(]|\s-\s|\s—\s)\s*|[，、：（]")
_TRAILING = " .,;:!?¿¡'\"`’)(-—…。！？，、；：「」『』"


def script_of(text: str) -> Script:
    """The script of ``text``: kana means Japanese, other CJK ideographs Chinese, Vietnamese letters
    Vietnamese, anything else is written in words separated by spaces."""
    if _KANA.search(text):
        return Script.japanese
    if _HAN.search(text):
        return Script.chinese
    if _VIETNAMESE.search(text):
        return Script.vietnamese
    return Script.latin


def _alternatives(*phrases: str) -> str:
    return "|".join(sorted((re.escape(p).replace(r"\ ", r"\s+") for p in phrases), key=len, reverse=True))


# Frames a request starts with, stripped repeatedly ("hi, could you please help me ..."). Latin frames
# end at a word boundary; CJK ones are plain prefixes.
_LATIN_PREFIX = re.compile(
    r"^(?:(?:"
    + _alternatives(
        "hi",
        "hello",
        "hey",
        "yo",
        "hi there",
        "hello there",
        "hey there",
        "good morning",
        "good afternoon",
        "good evening",
        "dear",
        "thanks",
        "thank you",
        "ok",
        "okay",
        "so",
        "um",
        "quick question",
        "question",
        "please",
        "pls",
        "kindly",
        "can you",
        "could you",
        "would you",
        "will you",
        "can u",
        "could u",
        "help me",
        "help me to",
        "help me with",
        "i want you to",
        "i need you to",
        "i'd like you to",
        "i would like you to",
        "i want to",
        "i'd like to",
        "i would like to",
        "i need to",
        "i have to",
        "i'm trying to",
        "i am trying to",
        "i'm looking to",
        "i am looking to",
        "i'm looking for",
        "i am looking for",
        "i need",
        "i want",
        "let's",
        "let us",
        "remind me to",
        "remind me",
        "tell me about",
        "tell me",
        "show me how to",
        "show me",
        "explain to me",
        "teach me",
        "give me",
        "how do i",
        "how can i",
        "how should i",
        "how would i",
        "how do you",
        "how to",
        "what's the best way to",
        "what is the best way to",
        "is there a way to",
        "is it possible to",
        "do you know",
        "i have a question",
        "i have a question about",
        "i've got a question about",
        "i was wondering",
        "i wonder",
        "what is",
        "what's",
        "what are",
        "the",
        "a",
        "an",
        "me",
        "hermes",
        "assistant",
        "basically",
        "actually",
        "honestly",
        "i'm",
        "i am",
        "bonjour",
        "salut",
        "hola",
        "hallo",
        "wie kann ich",
    )
    + r")\b[\s,.!:;-]*)+",
    re.IGNORECASE,
)
# "write me a poem", "make me a plan": the pronoun after a verb that opens a request.
_GREETING_PREFIX = re.compile(r"^(?:(?:hi|hello|hey|please|pls|ok|okay|so|um)\b[\s,.!:;-]*)+", re.IGNORECASE)
_LATIN_ME = re.compile(r"^(\w+)\s+me\s+(?=\S)", re.IGNORECASE)
_LATIN_SUFFIX = re.compile(
    r"(?:[\s,]+(?:"
    + _alternatives("please", "thanks", "thank you", "for me", "pls", "asap", "now")
    + r"))+$",
    re.IGNORECASE,
)
_VIETNAMESE_PREFIX = re.compile(
    r"^(?:(?:"
    + _alternatives(
        "xin chào",
        "chào bạn",
        "chào",
        "bạn ơi",
        "ơi",
        "cho tôi hỏi",
        "cho mình hỏi",
        "cho em hỏi",
        "bạn có thể",
        "bạn có thể giúp tôi",
        "bạn giúp tôi",
        "bạn giúp mình",
        "giúp tôi",
        "giúp mình",
        "giúp em",
        "hãy",
        "vui lòng",
        "làm thế nào để",
        "làm sao để",
        "làm thế nào",
        "làm sao",
        "cách nào để",
        "tôi muốn",
        "mình muốn",
        "em muốn",
        "tôi cần",
        "mình cần",
        "em cần",
        "tôi muốn biết",
        "mình muốn biết",
        "nhắc tôi",
        "nhắc mình",
        "nhắc em",
        "nhắc tôi nhớ",
        "tôi có câu hỏi về",
        "tôi có một câu hỏi về",
        "câu hỏi về",
    )
    + r")(?=[\s,.!:;?]|$)[\s,.!:;-]*)+",
    re.IGNORECASE,
)
_VIETNAMESE_SUFFIX = re.compile(
    r"(?:[\s,]+(?:"
    + _alternatives(
        "không",
        "được không",
        "nhé",
        "nha",
        "ạ",
        "với",
        "giúp tôi",
        "giúp mình",
        "cho tôi",
        "cho mình",
        "đi",
        "nào",
        "cảm ơn",
        "cám ơn",
    )
    + r"))+$",
    re.IGNORECASE,
)
_CHINESE_PREFIX = re.compile(
    "^(?:"
    + _alternatives(
        "你好",
        "您好",
        "嗨",
        "请问",
        "请",
        "麻烦你",
        "麻烦",
        "帮我",
        "帮忙",
        "帮",
        "能不能",
        "能否",
        "可以",
        "你能",
        "你可以",
        "我想要",
        "我想",
        "我需要",
        "我要",
        "提醒我",
        "告诉我",
        "教我",
        "如何",
        "怎么",
        "怎样",
        "，",
        "、",
        " ",
    )
    + ")+"
)
_CHINESE_SUFFIX = re.compile("(?:" + _alternatives("好吗", "可以吗", "吗", "呢", "吧", "谢谢", "啊") + ")+$")
_CHINESE_FILLER = re.compile("一个|一下|一些")
_JAPANESE_PREFIX = re.compile(
    "^(?:"
    + _alternatives("こんにちは", "こんばんは", "おはよう", "すみません", "ちょっと", "あの", "、", " ")
    + ")+"
)
_JAPANESE_SUFFIX = re.compile(
    "(?:"
    + _alternatives(
        "を教えてください",
        "を教えて",
        "教えてください",
        "教えて",
        "してください",
        "してほしい",
        "して欲しい",
        "をお願いします",
        "お願いします",
        "ようにリマインドして",
        "ようリマインドして",
        "とリマインドして",
        "リマインドして",
        "ください",
        "でしょうか",
        "ですか",
        "ますか",
        "ですね",
        "か",
    )
    + ")+$"
)
_GREETINGS = (
    "hi",
    "hello",
    "hey",
    "yo",
    "thanks",
    "thank you",
    "good morning",
    "good evening",
    "ok",
    "okay",
    "hope you're doing well",
    "hope you are doing well",
    "hope you're well",
    "how are you",
    "how are you doing",
    "hope all is well",
    "bonjour",
    "salut",
    "hola",
    "hallo",
    "ciao",
    "olá",
    "xin chào",
    "chào",
    "chào bạn",
    "cảm ơn",
    "你好",
    "您好",
    "谢谢",
    "こんにちは",
    "ありがとう",
    "hermes",
    "there",
    "everyone",
    "all",
)
_GREETING_ONLY = re.compile(r"^(?:" + _alternatives(*_GREETINGS) + r"|[\s,.!?~])+$", re.IGNORECASE)
# Words a title may drop when it is too long (possessives and fillers first, then articles).
_FILLERS = frozenset(
    ["my", "our", "your", "really", "very", "just", "actually", "basically", "quite", "please", "some"]
)
_ARTICLES = frozenset(["a", "an", "the"])
_HEDGES = re.compile(r"(?<=\s)(?:a bit|a little|kind of|sort of)\s+", re.IGNORECASE)
# Where a trailing phrase may be cut off, and what a title may not end on.
_PREPOSITIONS = frozenset(
    [
        "for",
        "with",
        "on",
        "at",
        "in",
        "by",
        "from",
        "into",
        "about",
        "after",
        "before",
        "during",
        "without",
        "within",
        "through",
        "between",
        "over",
        "under",
        "via",
        "using",
        "like",
        "trong",
        "trên",
        "cho",
        "với",
        "bằng",
        "từ",
        "khi",
    ]
)
_DANGLING = (
    _PREPOSITIONS
    | _ARTICLES
    | frozenset(
        [
            "my",
            "our",
            "your",
            "to",
            "of",
            "as",
            "and",
            "or",
            "but",
            "so",
            "than",
            "that",
            "which",
            "who",
            "is",
            "are",
            "was",
            "were",
            "be",
            "if",
            "when",
            "while",
            "because",
            "this",
            "these",
            "those",
            "what",
            "how",
            "why",
            "its",
            "their",
            "his",
            "her",
            "vs",
            "per",
            "và",
            "của",
            "là",
            "để",
            "các",
            "những",
            "một",
            "về",
            "ở",
            "nếu",
            "thì",
            "mà",
        ]
    )
)
_CLAUSE_WORDS = frozenset(
    ["because", "so", "since", "which", "that", "where", "but", "although", "whereas", "nhưng", "vì", "nên"]
)
# A first clause that only says when or under which condition: the request is the clause after it.
_SETTING_WORDS = frozenset(
    [
        "every",
        "each",
        "daily",
        "weekly",
        "tomorrow",
        "today",
        "tonight",
        "when",
        "if",
        "after",
        "before",
        "once",
        "hàng",
        "mỗi",
        "khi",
        "nếu",
    ]
)
_CJK_TRAILING = "的与和及或中のとをにはがでも、，"
_TRACEBACK = re.compile(r"^Traceback \(most recent call last\):\n(?:[ \t].*\n?)*", re.MULTILINE)
_QUOTE_MARKS = re.compile(r"(?<!\w)['\"‘“]|['\"’”](?!\w)")
_SMALL_TALK = {
    Script.latin: "Small talk and greetings",
    Script.vietnamese: "Trò chuyện và chào hỏi",
    Script.chinese: "闲聊问候",
    Script.japanese: "あいさつと雑談",
}
_PAD = {Script.latin: "Chat about", Script.vietnamese: "Trò chuyện về"}
_MAX_WORDS = {Script.latin: MAX_WORDS, Script.vietnamese: MAX_VIETNAMESE_SYLLABLES}


def _clean(text: str) -> str:
    """The prose of a message: code blocks and traceback frames out, URLs as their host, list markers
    and inline code marks off."""
    text = _TRACEBACK.sub("", _CODE_BLOCK.sub("\n", text))
    text = _URL.sub(lambda m: " " + (m.group(1) or m.group(2) or "").removeprefix("www.") + " ", text)
    text = _MARKUP.sub("", text)
    return _QUOTE_MARKS.sub("", text.replace("`", "").replace("**", ""))


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def _strip_frame(sentence: str, script: Script) -> str:
    text = sentence.strip().strip(_TRAILING)
    if script is Script.chinese:
        text = _CHINESE_PREFIX.sub("", text)
        text = _CHINESE_SUFFIX.sub("", text.strip(_TRAILING))
        return _CHINESE_FILLER.sub("", text).strip(_TRAILING)
    if script is Script.japanese:
        text = _JAPANESE_PREFIX.sub("", text)
        return _JAPANESE_SUFFIX.sub("", text.strip(_TRAILING)).strip(_TRAILING)
    vietnamese = script is Script.vietnamese
    prefix, suffix = (
        (_VIETNAMESE_PREFIX, _VIETNAMESE_SUFFIX) if vietnamese else (_LATIN_PREFIX, _LATIN_SUFFIX)
    )
    # A Latin frame may also open a Vietnamese sentence ("hi, cho mình hỏi ...").
    for _ in range(3):
        before = text
        text = _LATIN_PREFIX.sub("", prefix.sub("", text)).strip(_TRAILING)
        text = suffix.sub("", text).strip(_TRAILING)
        if text == before:
            break
    return _LATIN_ME.sub(r"\1 ", text)


def _trim(words: list[str]) -> list[str]:
    while len(words) > 1 and words[-1].casefold().strip(_TRAILING) in _DANGLING:
        words = words[:-1]
    return words


def _cut_at_preposition(words: list[str], limit: int) -> list[str] | None:
    """Without its trailing phrases: cut before the last preposition that leaves 3 to ``limit`` words."""
    for index in range(min(len(words) - 1, limit), MIN_WORDS - 1, -1):
        if words[index].casefold() in _PREPOSITIONS:
            kept = _trim(words[:index])
            if MIN_WORDS <= len(kept) <= limit:
                return kept
    return None


def _fit_words(words: list[str], limit: int) -> list[str]:
    """At most ``limit`` words: the first clause, then without fillers and articles, then without its
    trailing prepositional phrases, else cut; never ending on a word that needs a continuation."""
    if len(words) > limit:
        for index in range(1, len(words)):
            if words[index - 1][-1:] in ",;:" or (
                index >= MIN_WORDS and words[index].casefold() in _CLAUSE_WORDS
            ):
                first, rest = words[:index], words[index:]
                if first[0].casefold() in _SETTING_WORDS and len(rest) >= MIN_WORDS:
                    words = _LATIN_ME.sub(r"\1 ", " ".join(rest).lstrip(",;: ")).split()
                elif index >= MIN_WORDS:
                    words = first
                break
    words = [w.rstrip(",;:") for w in words]
    if len(words) <= limit:
        return _trim(words)
    light = _HEDGES.sub("", " ".join(words[:1]) + " " + " ".join(words[1:])).split()
    light = light[:1] + [w for w in light[1:] if w.casefold() not in _FILLERS]
    if len(light) <= limit:
        return _trim(light)
    bare = light[:1] + [w for w in light[1:] if w.casefold() not in _ARTICLES]
    options = [o for o in (_cut_at_preposition(light, limit), _cut_at_preposition(bare, limit)) if o]
    if len(bare) <= limit:
        options.append(bare)
    if options:
        return max(options, key=len)
    return _trim(bare[:limit])


def _width(text: str) -> int:
    """Length of a CJK title: a character each, a Latin word or number two."""
    return len(_CJK_CHAR.findall(text)) + 2 * len(re.findall(r"[^\W_]+", _CJK_CHAR.sub(" ", text)))


def _fit_cjk(text: str) -> str:
    pieces = [p for p in _CLAUSE_CUT.split(text) if p.strip()]
    if len(pieces) > 1 and _width(pieces[0]) >= 3:
        text = pieces[0]
    while _width(text) > MAX_CJK_CHARS:
        text = text[:-1]
    return text.rstrip(_CJK_TRAILING + _TRAILING) or text


def _gist(sentence: str, script: Script) -> str:
    text = _strip_frame(sentence, script)
    if not text:
        return ""
    if script in (Script.chinese, Script.japanese):
        return _fit_cjk(text).strip(_TRAILING)
    limit = _MAX_WORDS[script]
    words = _fit_words(text.split(), limit)
    if len(words) < MIN_WORDS:
        # "How do I exit vim?": the request is too short once its frame is gone; the sentence says it best.
        whole = _GREETING_PREFIX.sub("", sentence).strip(_TRAILING).split()
        words = whole if MIN_WORDS <= len(whole) <= limit else [*_PAD[script].split(), *words]
    title = " ".join(words)
    return title[:1].upper() + title[1:]


def _first_gist(text: str) -> str | None:
    for sentence in _sentences(_clean(text))[:6]:
        if _GREETING_ONLY.match(sentence):
            continue
        gist = _gist(sentence, script_of(sentence))
        if gist and (_CJK_CHAR.search(gist) or any(ch.isalnum() for ch in gist)):
            return gist
    return None


def sanitize_or_none(text: str) -> str | None:
    """``sanitize_title`` for text already short enough: the cleaned title, or ``None`` when empty."""
    return sanitize_title(text[:100])


def _shorten(title: str) -> str:
    while len(title) > MAX_TITLE_CHARS and " " in title:
        title = title.rsplit(" ", 1)[0]
    return title[:MAX_TITLE_CHARS].strip(_TRAILING)


def _only_links(text: str) -> str | None:
    """``Link to host/path`` for a message that is nothing but URLs."""
    links = [m.group(0) for m in _URL.finditer(text)]
    if not links or _URL.sub("", text).strip():
        return None
    place = re.sub(r"^(?:https?|ftp)://|^www\.", "", links[0]).rstrip("/").split("?")[0].split("#")[0]
    return "Link to " + "/".join(place.split("/")[:3])


def local_title(user: str, assistant: str) -> str:
    """A 3-7 word title (16 characters or so in Chinese or Japanese) for a first exchange, made of the
    request's own words in their order; never empty, never longer than :data:`MAX_TITLE_CHARS`."""
    prose = _clean(user).strip()
    if prose and all(_GREETING_ONLY.match(s) for s in _sentences(prose)):
        return _SMALL_TALK[script_of(prose)]
    found = _only_links(user.strip()) or _first_gist(user) or _first_gist(assistant)
    if found is None:
        return FALLBACK_TITLE
    return sanitize_or_none(_shorten(found)) or FALLBACK_TITLE
