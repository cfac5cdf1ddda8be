"""Ruff's JSON diagnostics as toolret ``Diagnostic`` values, for the format tests that
render ruff's own findings and compare the text with ruff's."""

from __future__ import annotations

from typing import Any

from lint_rules.model import Applicability, Diagnostic, Edit, Fix, Location, Severity


def at(row: int, column: int) -> Location:
    return Location(row=row, column=column)


_APPLICABILITY = {
    "safe": Applicability.SAFE,
    "unsafe": Applicability.UNSAFE,
    "displayonly": Applicability.DISPLAY_ONLY,
}


def from_ruff(obj: dict[str, Any]) -> Diagnostic:
    """The toolret diagnostic equivalent to one of ruff's JSON objects."""

    def location(value: dict[str, int]) -> Location:
        return at(value["row"], value["column"])

    ruff_fix = obj["fix"]
    return Diagnostic(
        code=obj["code"],
        name=obj["name"],
        message=obj["message"],
        severity=Severity(obj["severity"]),
        filename=obj["filename"],
        location=location(obj["location"]),
        end_location=location(obj["end_location"]),
        fix=None
        if ruff_fix is None
        else Fix(
            message=ruff_fix["message"],
            applicability=_APPLICABILITY[ruff_fix["applicability"]],
            edits=tuple(
                Edit(
                    content=edit["content"],
                    location=location(edit["location"]),
                    end_location=location(edit["end_location"]),
                )
                for edit in ruff_fix["edits"]
            ),
        ),
    )
