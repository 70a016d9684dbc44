from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.selected_session import SelectedSession


T = TypeVar("T", bound="ArchiveOut")


@_attrs_define
class ArchiveOut:
    """What the archive hid (or would hide).

    Attributes:
        archived (int): sessions archived, each with its compression lineage (dry run: would be)
        dry_run (bool):
        ids (list[str]): the sessions archived (dry run: that would be), oldest first
        candidates (list[SelectedSession] | None | Unset): the candidates with their title, source, start and size (dry
            run only)
    """

    archived: int
    dry_run: bool
    ids: list[str]
    candidates: list[SelectedSession] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        archived = self.archived

        dry_run = self.dry_run

        ids = self.ids

        candidates: list[dict[str, Any]] | None | Unset
        if isinstance(self.candidates, Unset):
            candidates = UNSET
        elif isinstance(self.candidates, list):
            candidates = []
            for candidates_type_0_item_data in self.candidates:
                candidates_type_0_item = candidates_type_0_item_data.to_dict()
                candidates.append(candidates_type_0_item)

        else:
            candidates = self.candidates

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "archived": archived,
                "dry_run": dry_run,
                "ids": ids,
            }
        )
        if candidates is not UNSET:
            field_dict["candidates"] = candidates

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.selected_session import SelectedSession

        d = dict(src_dict)
        archived = d.pop("archived")

        dry_run = d.pop("dry_run")

        ids = cast(list[str], d.pop("ids"))

        def _parse_candidates(data: object) -> list[SelectedSession] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                candidates_type_0 = []
                _candidates_type_0 = data
                for candidates_type_0_item_data in _candidates_type_0:
                    candidates_type_0_item = SelectedSession.from_dict(candidates_type_0_item_data)

                    candidates_type_0.append(candidates_type_0_item)

                return candidates_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[SelectedSession] | None | Unset, data)

        candidates = _parse_candidates(d.pop("candidates", UNSET))

        archive_out = cls(
            archived=archived,
            dry_run=dry_run,
            ids=ids,
            candidates=candidates,
        )

        archive_out.additional_properties = d
        return archive_out

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
