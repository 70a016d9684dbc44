"""The local title generator: the most telling words of a session's first exchange, no network needed.

Stop words are removed per language (English, Vietnamese, and short lists for French, Spanish, German and
Portuguese); CJK text has no spaces, so a run of CJK characters is one token, cut at common particles.
The result always passes :func:`app.domain.titles.sanitize_title`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.domain.titles import sanitize_title

MIN_WORDS = 3
MAX_WORDS = 7
MAX_TITLE_CHARS = 60
MAX_CJK_RUN = 12
FALLBACK_TITLE = "New conversation"


def _words(text: str) -> list[str]:
    return text.split()


_STOP_WORDS = frozenset(
    _words(
        # English
        "a an the and or but if then so of to in on at by for with from into about as is are was were be been"
        " being am do does did doing have has had having i me my mine we us our you your he him his she her"
        " it its they them their this that these those there here what which who whom whose when where why"
        " how can could would should will shall may might must not no yes please thanks thank hi"
        " hello hey just also very really some any all each every more most other such than too only own"
        " same again now out"
        " up down over under off need want like help get got make let tell know think way use using used one"
        " two lot lots thing things something anything ok okay sure well let's i'm it's don't can't"
        " what's sorry vs etc via per"
        # Vietnamese (syllables)
        " tôi bạn là của và có không cho với này được một những các thì mà để làm sao gì như thế nào giúp hãy"
        " em anh chị ạ nhé vậy rồi đã sẽ đang trong ra vào về khi nếu cũng rất lại nên từ theo bị đó kia ở"
        " xin chào cảm ơn mình muốn cần biết hỏi nhờ ơi nha hả thôi đây ai cái chỉ còn hay hoặc nhưng vì"
        " trên dưới"
        # French
        " le la les un une des du de et ou est sont je tu il elle nous vous ils elles ce cette ces mon ma mes"
        " ton ta tes son sa ses pour par avec dans sur pas que qui quoi comment pourquoi bonjour merci"
        # Spanish / Portuguese
        " el los las unos unas y o es son yo tú él ella nosotros usted por para con en sin que qué como cómo"
        " hola gracias um uma os eu você ele ela nós com em não sim obrigado olá isso esse essa"
        # German
        " der die das ein eine und oder ist sind ich du er sie wir ihr mit für von zu auf nicht wie was warum"
        " hallo danke bitte"
    )
)
# Particles and function words that split a CJK run (longest first so "一下" wins over "一").
_CJK_PARTICLES = sorted(
    _words(
        "请问 请 帮我 帮忙 帮 一下 一个 怎么 如何 什么 为什么 可以 能否 能不能 我们 我 你们 你"
        " 他 她 它 的 了 吗 呢 吧 啊 是 在 和 与 及 或 把 被 给 也 都 就 还 要 想 这个 那个 这 那"
        " 有 没有 谢谢 你好 の は が を に で と も です ます ください して する から まで よ ね か"
        " 이 가 은 는 을 를 에 의 도 요"
    ),
    key=len,
    reverse=True,
)
_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]+|[^\W\d_{_CJK}](?:[\w'’+#.-]*[\w+#])?")
_CJK_RUN = re.compile(rf"[{_CJK}]+")
_CODE_BLOCK = re.compile(r"```.*?(```|$)", re.DOTALL)
_URL = re.compile(r"\b(?:https?|ftp)://\S+|\bwww\.\S+")
_PARTICLE_SPLIT = re.compile("|".join(re.escape(p) for p in _CJK_PARTICLES))


@dataclass
class _Candidate:
    text: str
    position: int
    score: float
    cjk: bool


def _clean(text: str) -> str:
    return _URL.sub(" ", _CODE_BLOCK.sub(" ", text))


def _tokens(text: str) -> list[tuple[str, bool]]:
    """Word tokens and CJK pieces (runs split at particles), in order; ``True`` marks CJK."""
    out: list[tuple[str, bool]] = []
    for match in _TOKEN.finditer(_clean(text)):
        token = match.group(0)
        if _CJK_RUN.fullmatch(token):
            out.extend((piece, True) for piece in _PARTICLE_SPLIT.split(token) if piece)
        elif token.casefold() not in _STOP_WORDS and len(token) > 1:
            out.append((token, False))
    return out


def _candidates(user: str, assistant: str) -> list[_Candidate]:
    found: dict[str, _Candidate] = {}
    assistant_keys = {token.casefold() for token, _ in _tokens(assistant)}
    for position, (token, cjk) in enumerate(_tokens(user)):
        key = token.casefold()
        if key in found:
            found[key].score += 1.0
            continue
        # Longer CJK pieces carry more meaning; a word the reply repeats is probably the topic.
        score = 2.0 + (min(len(token), 6) / 2 if cjk else 0.0) + (1.5 if key in assistant_keys else 0.0)
        if not cjk and (token[0].isupper() or any(ch.isdigit() for ch in token)):
            score += 0.5  # names, products, versions
        found[key] = _Candidate(token, position, score, cjk)
    # CJK pieces are several words each: padding them with the reply's words would only add noise.
    if len(found) < MIN_WORDS and not any(c.cjk for c in found.values()):
        offset = len(found) + 1000  # assistant words go after the user's, in reply order
        for position, (token, cjk) in enumerate(_tokens(assistant)):
            key = token.casefold()
            if key not in found:
                found[key] = _Candidate(token, offset + position, 1.0, cjk)
            if len(found) >= MIN_WORDS:
                break
    return list(found.values())


def _join(parts: list[_Candidate]) -> str:
    text = ""
    for index, part in enumerate(parts):
        glue = "" if index and part.cjk and parts[index - 1].cjk else " "
        text = part.text if not index else f"{text}{glue}{part.text}"
    return text


def _shorten_cjk(parts: list[_Candidate]) -> list[_Candidate]:
    budget = MAX_CJK_RUN
    kept: list[_Candidate] = []
    for part in parts:
        if part.cjk:
            if budget <= 0:
                continue
            part = _Candidate(part.text[:budget], part.position, part.score, True)
            budget -= len(part.text)
        kept.append(part)
    return kept


def _fallback(user: str) -> str:
    words = _clean(user).split()[:MAX_WORDS]
    title = sanitize_or_none(" ".join(words)[:MAX_TITLE_CHARS])
    return title or FALLBACK_TITLE


def sanitize_or_none(text: str) -> str | None:
    """``sanitize_title`` for text already short enough: the cleaned title, or ``None`` when empty."""
    return sanitize_title(text[:100])


def local_title(user: str, assistant: str) -> str:
    """A 3-7 word title (or up to 12 CJK characters) for a first exchange; never empty, never too long."""
    candidates = sorted(_candidates(user, assistant), key=lambda c: (-c.score, c.position))
    if not candidates:
        return _fallback(user)
    top = candidates[0].score
    chosen = [c for i, c in enumerate(candidates[:MAX_WORDS]) if i < MIN_WORDS or c.score >= top / 2]
    parts = _shorten_cjk(sorted(chosen, key=lambda c: c.position))
    while len(parts) > 1 and len(_join(parts)) > MAX_TITLE_CHARS:
        parts.pop()
    title = _join(parts)[:MAX_TITLE_CHARS].strip(" -.'’")
    if title and not parts[0].cjk:
        title = title[0].upper() + title[1:]
    return sanitize_or_none(title) or _fallback(user)
