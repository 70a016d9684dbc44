from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.day_usage import DayUsage
    from ..models.hour_activity import HourActivity
    from ..models.model_usage import ModelUsage
    from ..models.source_usage import SourceUsage
    from ..models.tool_count import ToolCount
    from ..models.usage_row import UsageRow
    from ..models.weekday_activity import WeekdayActivity


T = TypeVar("T", bound="InsightsOut")


@_attrs_define
class InsightsOut:
    """Usage over the last ``days`` days (sessions started in the window).

    Attributes:
        activity_by_hour (list[HourActivity]):
        activity_by_weekday (list[WeekdayActivity]):
        by_day (list[DayUsage]):
        by_model (list[ModelUsage]):
        by_source (list[SourceUsage]):
        days (int):
        since (float):
        source (None | str):
        top_tools (list[ToolCount]):
        totals (UsageRow): Token and cost sums of a group of sessions.
        until (float):
    """

    activity_by_hour: list[HourActivity]
    activity_by_weekday: list[WeekdayActivity]
    by_day: list[DayUsage]
    by_model: list[ModelUsage]
    by_source: list[SourceUsage]
    days: int
    since: float
    source: None | str
    top_tools: list[ToolCount]
    totals: UsageRow
    until: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        activity_by_hour = []
        for activity_by_hour_item_data in self.activity_by_hour:
            activity_by_hour_item = activity_by_hour_item_data.to_dict()
            activity_by_hour.append(activity_by_hour_item)

        activity_by_weekday = []
        for activity_by_weekday_item_data in self.activity_by_weekday:
            activity_by_weekday_item = activity_by_weekday_item_data.to_dict()
            activity_by_weekday.append(activity_by_weekday_item)

        by_day = []
        for by_day_item_data in self.by_day:
            by_day_item = by_day_item_data.to_dict()
            by_day.append(by_day_item)

        by_model = []
        for by_model_item_data in self.by_model:
            by_model_item = by_model_item_data.to_dict()
            by_model.append(by_model_item)

        by_source = []
        for by_source_item_data in self.by_source:
            by_source_item = by_source_item_data.to_dict()
            by_source.append(by_source_item)

        days = self.days

        since = self.since

        source: None | str
        source = self.source

        top_tools = []
        for top_tools_item_data in self.top_tools:
            top_tools_item = top_tools_item_data.to_dict()
            top_tools.append(top_tools_item)

        totals = self.totals.to_dict()

        until = self.until

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "activity_by_hour": activity_by_hour,
                "activity_by_weekday": activity_by_weekday,
                "by_day": by_day,
                "by_model": by_model,
                "by_source": by_source,
                "days": days,
                "since": since,
                "source": source,
                "top_tools": top_tools,
                "totals": totals,
                "until": until,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.day_usage import DayUsage
        from ..models.hour_activity import HourActivity
        from ..models.model_usage import ModelUsage
        from ..models.source_usage import SourceUsage
        from ..models.tool_count import ToolCount
        from ..models.usage_row import UsageRow
        from ..models.weekday_activity import WeekdayActivity

        d = dict(src_dict)
        activity_by_hour = []
        _activity_by_hour = d.pop("activity_by_hour")
        for activity_by_hour_item_data in _activity_by_hour:
            activity_by_hour_item = HourActivity.from_dict(activity_by_hour_item_data)

            activity_by_hour.append(activity_by_hour_item)

        activity_by_weekday = []
        _activity_by_weekday = d.pop("activity_by_weekday")
        for activity_by_weekday_item_data in _activity_by_weekday:
            activity_by_weekday_item = WeekdayActivity.from_dict(activity_by_weekday_item_data)

            activity_by_weekday.append(activity_by_weekday_item)

        by_day = []
        _by_day = d.pop("by_day")
        for by_day_item_data in _by_day:
            by_day_item = DayUsage.from_dict(by_day_item_data)

            by_day.append(by_day_item)

        by_model = []
        _by_model = d.pop("by_model")
        for by_model_item_data in _by_model:
            by_model_item = ModelUsage.from_dict(by_model_item_data)

            by_model.append(by_model_item)

        by_source = []
        _by_source = d.pop("by_source")
        for by_source_item_data in _by_source:
            by_source_item = SourceUsage.from_dict(by_source_item_data)

            by_source.append(by_source_item)

        days = d.pop("days")

        since = d.pop("since")

        def _parse_source(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source = _parse_source(d.pop("source"))

        top_tools = []
        _top_tools = d.pop("top_tools")
        for top_tools_item_data in _top_tools:
            top_tools_item = ToolCount.from_dict(top_tools_item_data)

            top_tools.append(top_tools_item)

        totals = UsageRow.from_dict(d.pop("totals"))

        until = d.pop("until")

        insights_out = cls(
            activity_by_hour=activity_by_hour,
            activity_by_weekday=activity_by_weekday,
            by_day=by_day,
            by_model=by_model,
            by_source=by_source,
            days=days,
            since=since,
            source=source,
            top_tools=top_tools,
            totals=totals,
            until=until,
        )

        insights_out.additional_properties = d
        return insights_out

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
