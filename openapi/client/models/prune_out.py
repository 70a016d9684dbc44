from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.selected_session import SelectedSession


T = TypeVar("T", bound="PruneOut")


@_attrs_define
class PruneOut:
    """What the prune deleted (or would delete).

    Attributes:
        cutoff (float | None): sessions started before this epoch time qualified (null: no upper bound)
        dry_run (bool):
        ids (list[str] | None): the candidates, oldest first (dry run only)
        messages (int):
        pruned (int): sessions deleted (dry run: that would be deleted)
        reclaimable_bytes (int): stored payload of the pruned sessions (estimate, before VACUUM)
        candidates (list[SelectedSession] | None | Unset): the candidates with their title, source, start and size (dry
            run only)
        kept_open (int | None | Unset): sessions the criteria match that are kept because they are open (dry run without
            `session_ids` only)
        kept_pinned (int | None | Unset): ended sessions the criteria match that are kept because they are pinned (dry
            run without `session_ids` only)
    """

    cutoff: float | None
    dry_run: bool
    ids: list[str] | None
    messages: int
    pruned: int
    reclaimable_bytes: int
    candidates: list[SelectedSession] | None | Unset = UNSET
    kept_open: int | None | Unset = UNSET
    kept_pinned: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cutoff: float | None
        cutoff = self.cutoff

        dry_run = self.dry_run

        ids: list[str] | None
        if isinstance(self.ids, list):
            ids = self.ids

        else:
            ids = self.ids

        messages = self.messages

        pruned = self.pruned

        reclaimable_bytes = self.reclaimable_bytes

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

        kept_open: int | None | Unset
        if isinstance(self.kept_open, Unset):
            kept_open = UNSET
        else:
            kept_open = self.kept_open

        kept_pinned: int | None | Unset
        if isinstance(self.kept_pinned, Unset):
            kept_pinned = UNSET
        else:
            kept_pinned = self.kept_pinned

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cutoff": cutoff,
                "dry_run": dry_run,
                "ids": ids,
                "messages": messages,
                "pruned": pruned,
                "reclaimable_bytes": reclaimable_bytes,
            }
        )
        if candidates is not UNSET:
            field_dict["candidates"] = candidates
        if kept_open is not UNSET:
            field_dict["kept_open"] = kept_open
        if kept_pinned is not UNSET:
            field_dict["kept_pinned"] = kept_pinned

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.selected_session import SelectedSession

        d = dict(src_dict)

        def _parse_cutoff(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        cutoff = _parse_cutoff(d.pop("cutoff"))

        dry_run = d.pop("dry_run")

        def _parse_ids(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                ids_type_0 = cast(list[str], data)

                return ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        ids = _parse_ids(d.pop("ids"))

        messages = d.pop("messages")

        pruned = d.pop("pruned")

        reclaimable_bytes = d.pop("reclaimable_bytes")

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

        def _parse_kept_open(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        kept_open = _parse_kept_open(d.pop("kept_open", UNSET))

        def _parse_kept_pinned(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        kept_pinned = _parse_kept_pinned(d.pop("kept_pinned", UNSET))

        prune_out = cls(
            cutoff=cutoff,
            dry_run=dry_run,
            ids=ids,
            messages=messages,
            pruned=pruned,
            reclaimable_bytes=reclaimable_bytes,
            candidates=candidates,
            kept_open=kept_open,
            kept_pinned=kept_pinned,
        )

        prune_out.additional_properties = d
        return prune_out

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
