from enum import StrEnum


class ExportSessionsFormattedFormat(StrEnum):
    HTML = "html"
    JSONL = "jsonl"
    MD = "md"
    QMD = "qmd"
    TRACE = "trace"

    def __str__(self) -> str:
        return str(self.value)
