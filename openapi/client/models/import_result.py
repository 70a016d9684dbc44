from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.import_result_on_conflict import ImportResultOnConflict

if TYPE_CHECKING:
    from ..models.import_issue_out import ImportIssueOut


T = TypeVar("T", bound="ImportResult")


@_attrs_define
class ImportResult:
    """Counts of one import.

    Attributes:
        detached (int): sessions whose parent is neither stored nor in the file
        dry_run (bool):
        errors (list[ImportIssueOut]):
        errors_truncated (bool):
        failed (int): lines not imported; the first 100 are in errors
        imported (int): new sessions written
        index_pending (int): imported messages not yet in the full-text indexes when this answer was sent: an import of
            over 1,000 messages or 200 sessions is indexed by a background task after it is stored (0 with
            wait_for_index=true); until then search misses them, and `GET /stats` and search report
            `indexing.pending_messages`
        lines (int): non-blank lines (or transcript files) read
        linked (int): parent links restored
        message_ids_kept (int): messages that kept their original id (ids are kept when free)
        messages (int): messages written
        on_conflict (ImportResultOnConflict):
        replaced (int): existing sessions overwritten (on_conflict=replace)
        skipped (int): existing sessions left alone (on_conflict=skip)
    """

    detached: int
    dry_run: bool
    errors: list[ImportIssueOut]
    errors_truncated: bool
    failed: int
    imported: int
    index_pending: int
    lines: int
    linked: int
    message_ids_kept: int
    messages: int
    on_conflict: ImportResultOnConflict
    replaced: int
    skipped: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        detached = self.detached

        dry_run = self.dry_run

        errors = []
        for errors_item_data in self.errors:
            errors_item = errors_item_data.to_dict()
            errors.append(errors_item)

        errors_truncated = self.errors_truncated

        failed = self.failed

        imported = self.imported

        index_pending = self.index_pending

        lines = self.lines

        linked = self.linked

        message_ids_kept = self.message_ids_kept

        messages = self.messages

        on_conflict = self.on_conflict.value

        replaced = self.replaced

        skipped = self.skipped

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "detached": detached,
                "dry_run": dry_run,
                "errors": errors,
                "errors_truncated": errors_truncated,
                "failed": failed,
                "imported": imported,
                "index_pending": index_pending,
                "lines": lines,
                "linked": linked,
                "message_ids_kept": message_ids_kept,
                "messages": messages,
                "on_conflict": on_conflict,
                "replaced": replaced,
                "skipped": skipped,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.import_issue_out import ImportIssueOut

        d = dict(src_dict)
        detached = d.pop("detached")

        dry_run = d.pop("dry_run")

        errors = []
        _errors = d.pop("errors")
        for errors_item_data in _errors:
            errors_item = ImportIssueOut.from_dict(errors_item_data)

            errors.append(errors_item)

        errors_truncated = d.pop("errors_truncated")

        failed = d.pop("failed")

        imported = d.pop("imported")

        index_pending = d.pop("index_pending")

        lines = d.pop("lines")

        linked = d.pop("linked")

        message_ids_kept = d.pop("message_ids_kept")

        messages = d.pop("messages")

        on_conflict = ImportResultOnConflict(d.pop("on_conflict"))

        replaced = d.pop("replaced")

        skipped = d.pop("skipped")

        import_result = cls(
            detached=detached,
            dry_run=dry_run,
            errors=errors,
            errors_truncated=errors_truncated,
            failed=failed,
            imported=imported,
            index_pending=index_pending,
            lines=lines,
            linked=linked,
            message_ids_kept=message_ids_kept,
            messages=messages,
            on_conflict=on_conflict,
            replaced=replaced,
            skipped=skipped,
        )

        import_result.additional_properties = d
        return import_result

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
