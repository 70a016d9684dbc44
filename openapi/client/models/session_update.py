from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.session_update_model_config_type_0 import SessionUpdateModelConfigType0


T = TypeVar("T", bound="SessionUpdate")


@_attrs_define
class SessionUpdate:
    """Body of ``PATCH /sessions/{id}``; only the members present are changed.

    Attributes:
        archived (bool | None | Unset):
        end_reason (None | str | Unset): Ends the session; the first end wins
        model (None | str | Unset):
        model_config (None | SessionUpdateModelConfigType0 | Unset):
        title (None | str | Unset): null clears the title
    """

    archived: bool | None | Unset = UNSET
    end_reason: None | str | Unset = UNSET
    model: None | str | Unset = UNSET
    model_config: None | SessionUpdateModelConfigType0 | Unset = UNSET
    title: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.session_update_model_config_type_0 import SessionUpdateModelConfigType0

        archived: bool | None | Unset
        if isinstance(self.archived, Unset):
            archived = UNSET
        else:
            archived = self.archived

        end_reason: None | str | Unset
        if isinstance(self.end_reason, Unset):
            end_reason = UNSET
        else:
            end_reason = self.end_reason

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        model_config: dict[str, Any] | None | Unset
        if isinstance(self.model_config, Unset):
            model_config = UNSET
        elif isinstance(self.model_config, SessionUpdateModelConfigType0):
            model_config = self.model_config.to_dict()
        else:
            model_config = self.model_config

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if archived is not UNSET:
            field_dict["archived"] = archived
        if end_reason is not UNSET:
            field_dict["end_reason"] = end_reason
        if model is not UNSET:
            field_dict["model"] = model
        if model_config is not UNSET:
            field_dict["model_config"] = model_config
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.session_update_model_config_type_0 import SessionUpdateModelConfigType0

        d = dict(src_dict)

        def _parse_archived(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        archived = _parse_archived(d.pop("archived", UNSET))

        def _parse_end_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        end_reason = _parse_end_reason(d.pop("end_reason", UNSET))

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        def _parse_model_config(data: object) -> None | SessionUpdateModelConfigType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                model_config_type_0 = SessionUpdateModelConfigType0.from_dict(data)

                return model_config_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionUpdateModelConfigType0 | Unset, data)

        model_config = _parse_model_config(d.pop("model_config", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        session_update = cls(
            archived=archived,
            end_reason=end_reason,
            model=model,
            model_config=model_config,
            title=title,
        )

        return session_update
