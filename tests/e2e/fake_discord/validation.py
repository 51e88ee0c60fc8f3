"""Discord's own limits, checked by the fake so that a bot which would be rejected by Discord fails here too.

Only the limits a board-game bot can plausibly hit are modelled (lengths, counts, custom_id uniqueness,
command-name syntax); each check raises ``DiscordError`` with Discord's status and JSON error code.
"""

from __future__ import annotations

import re
from typing import Any

from .records import iter_components

IS_COMPONENTS_V2 = 1 << 15
_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


class DiscordError(Exception):
    """Answered as Discord would: ``{"message": ..., "code": ...}`` with an HTTP status."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def form_error(field: str, message: str) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", {field: {"_errors": [{"code": "BASE_TYPE_INVALID",
                                                                             "message": message}]}})


def check_message(body: dict[str, Any], *, file_count: int, creating: bool) -> None:
    content = body.get("content") or ""
    if len(content) > 2000:
        raise form_error("content", f"Must be 2000 or fewer in length (got {len(content)}).")
    embeds = body.get("embeds") or []
    components = body.get("components") or []
    if creating and not (content or embeds or components or file_count or body.get("sticker_ids") or body.get("poll")):
        raise DiscordError(400, 50006, "Cannot send an empty message")
    if len(embeds) > 10:
        raise form_error("embeds", "Must be 10 or fewer in length.")
    for embed in embeds:
        check_embed(embed)
    check_components(components, v2=bool((body.get("flags") or 0) & IS_COMPONENTS_V2))


def check_embed(embed: dict[str, Any]) -> None:
    limits = {"title": 256, "description": 4096}
    for key, limit in limits.items():
        if len(embed.get(key) or "") > limit:
            raise form_error(f"embeds.{key}", f"Must be {limit} or fewer in length.")
    fields = embed.get("fields") or []
    if len(fields) > 25:
        raise form_error("embeds.fields", "Must be 25 or fewer in length.")
    for embed_field in fields:
        if not embed_field.get("name") or not embed_field.get("value"):
            raise form_error("embeds.fields", "This field is required (empty field name or value).")
        if len(embed_field["name"]) > 256 or len(embed_field["value"]) > 1024:
            raise form_error("embeds.fields", "Field name/value too long.")
    total = sum(len(embed.get(k) or "") for k in ("title", "description"))
    total += sum(len(f.get("name", "")) + len(f.get("value", "")) for f in fields)
    total += len((embed.get("footer") or {}).get("text", "")) + len((embed.get("author") or {}).get("name", ""))
    if total > 6000:
        raise form_error("embeds", "Embed size exceeds maximum size of 6000.")


def check_components(components: list[dict[str, Any]], *, v2: bool = False) -> None:
    if not v2 and len(components) > 5:
        raise form_error("components", "Must be 5 or fewer in length.")
    seen: set[str] = set()
    for component in iter_components(components):
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if not 1 <= len(custom_id) <= 100:
                raise form_error("components.custom_id", "Must be between 1 and 100 in length.")
            if custom_id in seen:
                raise form_error("components.custom_id", f"Component custom id cannot be duplicated ({custom_id}).")
            seen.add(custom_id)
        if component["type"] == 1:
            children = component.get("components", [])
            if len(children) > 5 or (any(c["type"] != 2 for c in children) and len(children) > 1):
                raise form_error("components", "An action row holds up to 5 buttons or exactly 1 select.")
        if component["type"] == 2 and len(component.get("label") or "") > 80:
            raise form_error("components.label", "Must be 80 or fewer in length.")
        if component["type"] == 3:
            options = component.get("options") or []
            if not 1 <= len(options) <= 25:
                raise form_error("components.options", "A select holds between 1 and 25 options.")
            for option in options:
                if len(option.get("label", "")) > 100 or len(option.get("value", "")) > 100:
                    raise form_error("components.options", "Option label/value must be 100 or fewer in length.")


def check_choices(choices: list[dict[str, Any]]) -> None:
    if len(choices) > 25:
        raise form_error("data.choices", "Must be 25 or fewer in length.")
    for choice in choices:
        if not 1 <= len(choice.get("name", "")) <= 100:
            raise form_error("data.choices.name", "Must be between 1 and 100 in length.")
        if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
            raise form_error("data.choices.value", "Must be 100 or fewer in length.")


def check_command(command: dict[str, Any], where: str = "") -> None:
    """Names: 1-32 chars, lower case, no spaces (also localised ones); descriptions: 1-100 chars."""
    is_slash = command.get("type", 1) == 1 or "type" not in command or where
    names = [command["name"], *(command.get("name_localizations") or {}).values()]
    for name in names:
        if is_slash and (not _COMMAND_NAME.match(name) or name != name.lower()):
            raise form_error(f"{where}name", f"Invalid command name {name!r}.")
    descriptions = [command.get("description", ""), *(command.get("description_localizations") or {}).values()]
    for description in descriptions:
        if is_slash and not 1 <= len(description) <= 100:
            raise form_error(f"{where}description", f"Description must be 1-100 characters: {description!r}.")
    options = command.get("options") or []
    if len(options) > 25:
        raise form_error(f"{where}options", "Must be 25 or fewer in length.")
    optional_seen = False
    for option in options:
        if option.get("type") not in (1, 2):
            if not option.get("required", False):
                optional_seen = True
            elif optional_seen:
                raise form_error(f"{where}options", "Required options must be placed before non-required options.")
        if len(option.get("choices") or []) > 25:
            raise form_error(f"{where}options.choices", "Must be 25 or fewer in length.")
        check_command(option, where=f"{where}options.{option['name']}.")
