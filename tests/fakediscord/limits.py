"""Validation of what the bot sends, mirroring limits real Discord enforces.

Each validator returns a list of :class:`FieldError`; an empty list means "Discord would accept
this". The server turns errors into a 400 ``50035 Invalid Form Body`` answer whose ``errors``
object has Discord's nested shape, so discord.py's ``HTTPException.text`` reads like the real one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .models import FLAG_IS_COMPONENTS_V2, VALID_LOCALES

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
MAX_CHOICE_VALUE = 100
MAX_FILES = 10
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000

SELECT_TYPES = (3, 5, 6, 7, 8)
COMMAND_NAME_RE = re.compile(r"^[-_'\w]{1,32}$")


@dataclass(frozen=True)
class FieldError:
    path: tuple[str | int, ...]
    code: str
    message: str

    def __str__(self) -> str:
        where = ".".join(str(p) for p in self.path) or "<body>"
        return f"{where}: {self.message}"


def error_body(errors: list[FieldError], *, code: int = 50035) -> dict[str, Any]:
    """Build Discord's ``{"code", "message", "errors"}`` body for a list of field errors."""
    tree: dict[str, Any] = {}
    for err in errors:
        node = tree
        for part in err.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": err.code, "message": err.message})
    return {"code": code, "message": "Invalid Form Body", "errors": tree}


def _max_len(value: Any, limit: int, path: tuple[str | int, ...], out: list[FieldError]) -> None:
    if isinstance(value, str) and len(value) > limit:
        out.append(FieldError(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."))


def _len_between(
    value: Any, low: int, high: int, path: tuple[str | int, ...], out: list[FieldError]
) -> None:
    if not isinstance(value, str) or not (low <= len(value) <= high):
        out.append(
            FieldError(
                path,
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between {low} and {high} in length.",
            )
        )


# --- embeds ----------------------------------------------------------------------------------


def validate_embeds(embeds: Any) -> list[FieldError]:
    out: list[FieldError] = []
    if not isinstance(embeds, list):
        return [FieldError(("embeds",), "LIST_TYPE_CONVERT", "Must be an array.")]
    if len(embeds) > MAX_EMBEDS:
        out.append(
            FieldError(
                ("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length."
            )
        )
    total = 0
    for i, embed in enumerate(embeds):
        p: tuple[str | int, ...] = ("embeds", i)
        if not isinstance(embed, dict):
            out.append(FieldError(p, "DICT_TYPE_CONVERT", "Must be an object."))
            continue
        _max_len(embed.get("title"), 256, (*p, "title"), out)
        _max_len(embed.get("description"), 4096, (*p, "description"), out)
        _max_len((embed.get("author") or {}).get("name"), 256, (*p, "author", "name"), out)
        _max_len((embed.get("footer") or {}).get("text"), 2048, (*p, "footer", "text"), out)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            out.append(
                FieldError((*p, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            )
        for j, f in enumerate(fields):
            _len_between(f.get("name"), 1, 256, (*p, "fields", j, "name"), out)
            _len_between(f.get("value"), 1, 1024, (*p, "fields", j, "value"), out)
        for text in (
            embed.get("title"),
            embed.get("description"),
            (embed.get("author") or {}).get("name"),
            (embed.get("footer") or {}).get("text"),
            *[f.get("name") for f in fields],
            *[f.get("value") for f in fields],
        ):
            if isinstance(text, str):
                total += len(text)
    if total > MAX_EMBED_TOTAL:
        out.append(
            FieldError(
                ("embeds",),
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
            )
        )
    return out


# --- components ------------------------------------------------------------------------------


def _validate_button(
    comp: dict[str, Any], p: tuple[str | int, ...], out: list[FieldError], seen: set[str]
) -> None:
    style = comp.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        out.append(
            FieldError(
                (*p, "style"), "BASE_TYPE_CHOICES", f"Value must be one of 1-6, got {style!r}."
            )
        )
    _max_len(comp.get("label"), 80, (*p, "label"), out)
    if style == 5:
        if not comp.get("url"):
            out.append(FieldError((*p, "url"), "BASE_TYPE_REQUIRED", "This field is required"))
        if comp.get("custom_id"):
            out.append(
                FieldError(
                    (*p, "custom_id"),
                    "COMPONENT_LINK_BUTTON_CUSTOM_ID",
                    "Link buttons cannot have a custom_id",
                )
            )
        return
    if style == 6:
        return
    _validate_custom_id(comp, p, out, seen)


def _validate_custom_id(
    comp: dict[str, Any], p: tuple[str | int, ...], out: list[FieldError], seen: set[str]
) -> None:
    custom_id = comp.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id:
        out.append(FieldError((*p, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required"))
        return
    if len(custom_id) > MAX_CUSTOM_ID:
        out.append(
            FieldError(
                (*p, "custom_id"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_CUSTOM_ID} or fewer in length.",
            )
        )
    if custom_id in seen:
        out.append(
            FieldError(
                (*p, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        )
    seen.add(custom_id)


def _validate_select(
    comp: dict[str, Any], p: tuple[str | int, ...], out: list[FieldError], seen: set[str]
) -> None:
    _validate_custom_id(comp, p, out, seen)
    _max_len(comp.get("placeholder"), 150, (*p, "placeholder"), out)
    min_v = comp.get("min_values", 1)
    max_v = comp.get("max_values", 1)
    if not isinstance(min_v, int) or not 0 <= min_v <= 25:
        out.append(
            FieldError(
                (*p, "min_values"), "NUMBER_TYPE_MAX", "int value should be between 0 and 25."
            )
        )
    if not isinstance(max_v, int) or not 1 <= max_v <= 25:
        out.append(
            FieldError(
                (*p, "max_values"), "NUMBER_TYPE_MAX", "int value should be between 1 and 25."
            )
        )
    if comp.get("type") == 3:
        options = comp.get("options") or []
        if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            out.append(
                FieldError(
                    (*p, "options"),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
                )
            )
        values: set[str] = set()
        for k, opt in enumerate(options):
            op = (*p, "options", k)
            _len_between(opt.get("label"), 1, 100, (*op, "label"), out)
            _len_between(opt.get("value"), 1, 100, (*op, "value"), out)
            _max_len(opt.get("description"), 100, (*op, "description"), out)
            if opt.get("value") in values:
                out.append(
                    FieldError(
                        (*op, "value"),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Select option values must be unique",
                    )
                )
            values.add(opt.get("value"))
        if isinstance(max_v, int) and options and max_v > len(options):
            out.append(
                FieldError(
                    (*p, "max_values"),
                    "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
                    "max_values cannot exceed the number of options",
                )
            )
    if isinstance(min_v, int) and isinstance(max_v, int) and min_v > max_v:
        out.append(
            FieldError(
                (*p, "min_values"),
                "SELECT_COMPONENT_MIN_GT_MAX",
                "min_values cannot exceed max_values",
            )
        )


def _validate_classic_components(components: list[Any]) -> list[FieldError]:
    out: list[FieldError] = []
    if len(components) > MAX_ACTION_ROWS:
        out.append(
            FieldError(
                ("components",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_ACTION_ROWS} or fewer in length.",
            )
        )
    seen: set[str] = set()
    for i, row in enumerate(components):
        p: tuple[str | int, ...] = ("components", i)
        if not isinstance(row, dict) or row.get("type") != 1:
            out.append(
                FieldError(
                    p,
                    "UNION_TYPE_CHOICES",
                    "Top-level components must be action rows (type 1) unless IS_COMPONENTS_V2 is set",
                )
            )
            continue
        children = row.get("components") or []
        if not children:
            out.append(
                FieldError(
                    (*p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
                )
            )
        has_select = any(c.get("type") in SELECT_TYPES for c in children)
        if has_select and len(children) > 1:
            out.append(
                FieldError(
                    (*p, "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                )
            )
        elif len(children) > MAX_ROW_BUTTONS:
            out.append(
                FieldError(
                    (*p, "components"),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_ROW_BUTTONS} or fewer in length.",
                )
            )
        for j, comp in enumerate(children):
            cp = (*p, "components", j)
            ctype = comp.get("type")
            if ctype == 2:
                _validate_button(comp, cp, out, seen)
            elif ctype in SELECT_TYPES:
                _validate_select(comp, cp, out, seen)
            else:
                out.append(
                    FieldError(
                        cp,
                        "UNION_TYPE_CHOICES",
                        f"Component type {ctype} is not allowed in a message action row",
                    )
                )
    return out


def _validate_v2_components(components: list[Any], payload: dict[str, Any]) -> list[FieldError]:
    out: list[FieldError] = []
    if payload.get("content"):
        out.append(
            FieldError(
                ("content",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "Cannot be used with IS_COMPONENTS_V2",
            )
        )
    if payload.get("embeds"):
        out.append(
            FieldError(
                ("embeds",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "Cannot be used with IS_COMPONENTS_V2",
            )
        )
    seen: set[str] = set()
    count = 0
    text = 0

    def walk(items: list[Any], path: tuple[str | int, ...]) -> None:
        nonlocal count, text
        for i, comp in enumerate(items):
            p = (*path, i)
            count += 1
            ctype = comp.get("type")
            if ctype == 2:
                _validate_button(comp, p, out, seen)
            elif ctype in SELECT_TYPES:
                _validate_select(comp, p, out, seen)
            elif ctype == 10:
                text += len(comp.get("content") or "")
            if ctype == 1:
                children = comp.get("components") or []
                has_select = any(c.get("type") in SELECT_TYPES for c in children)
                if (has_select and len(children) > 1) or len(children) > MAX_ROW_BUTTONS:
                    out.append(
                        FieldError(
                            (*p, "components"),
                            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                            "The specified component exceeds the maximum width",
                        )
                    )
            if isinstance(comp.get("components"), list):
                walk(comp["components"], (*p, "components"))
            if isinstance(comp.get("accessory"), dict):
                walk([comp["accessory"]], (*p, "accessory"))

    walk(components, ("components",))
    if count > MAX_V2_COMPONENTS:
        out.append(
            FieldError(
                ("components",),
                "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
                f"Total components must be {MAX_V2_COMPONENTS} or fewer",
            )
        )
    if text > MAX_V2_TEXT:
        out.append(
            FieldError(
                ("components",),
                "COMPONENT_MAX_TEXT_EXCEEDED",
                f"Total text displayed must be {MAX_V2_TEXT} or fewer characters",
            )
        )
    return out


def validate_components(components: Any, payload: dict[str, Any]) -> list[FieldError]:
    if not isinstance(components, list):
        return [FieldError(("components",), "LIST_TYPE_CONVERT", "Must be an array.")]
    if int(payload.get("flags") or 0) & FLAG_IS_COMPONENTS_V2:
        return _validate_v2_components(components, payload)
    return _validate_classic_components(components)


# --- whole messages --------------------------------------------------------------------------


def validate_message(payload: dict[str, Any], *, n_files: int) -> list[FieldError]:
    """Validate a message create/edit body (content, embeds, components, attachments)."""
    out: list[FieldError] = []
    content = payload.get("content")
    if content is not None:
        if not isinstance(content, str):
            out.append(
                FieldError(
                    ("content",), "STRING_TYPE_CONVERT", "Could not interpret value as string."
                )
            )
        elif len(content) > MAX_CONTENT:
            out.append(
                FieldError(
                    ("content",),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_CONTENT} or fewer in length.",
                )
            )
    if payload.get("embeds") is not None:
        out.extend(validate_embeds(payload["embeds"]))
    if payload.get("components") is not None:
        out.extend(validate_components(payload["components"], payload))
    attachments = payload.get("attachments")
    total_attachments = len(attachments) if isinstance(attachments, list) else n_files
    if total_attachments > MAX_FILES or n_files > MAX_FILES:
        out.append(
            FieldError(
                ("attachments",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length."
            )
        )
    nonce = payload.get("nonce")
    if isinstance(nonce, str) and len(nonce) > 25:
        out.append(FieldError(("nonce",), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    return out


def is_empty_message(payload: dict[str, Any], n_files: int) -> bool:
    return not (
        payload.get("content")
        or payload.get("embeds")
        or payload.get("components")
        or payload.get("sticker_ids")
        or payload.get("poll")
        or n_files
    )


# --- interaction callbacks ---------------------------------------------------------------


def focused_type(data: dict[str, Any]) -> int | None:
    """The type of the focused option of an autocomplete interaction's data."""
    stack = list(data.get("options") or [])
    while stack:
        opt = stack.pop()
        if opt.get("focused"):
            return int(opt["type"])
        stack.extend(opt.get("options") or [])
    return None


def validate_choices(choices: Any, option_type: int | None = None) -> list[FieldError]:
    """An autocomplete answer: at most 25 choices, names 1-100 characters,
    values of the focused option's type (a STRING option takes strings of at
    most 100 characters, INTEGER and NUMBER options numbers)."""
    out: list[FieldError] = []
    if not isinstance(choices, list):
        return [FieldError(("data", "choices"), "LIST_TYPE_CONVERT", "Must be an array.")]
    if len(choices) > MAX_CHOICES:
        out.append(
            FieldError(
                ("data", "choices"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_CHOICES} or fewer in length.",
            )
        )
    for i, choice in enumerate(choices):
        p: tuple[str | int, ...] = ("data", "choices", i)
        _len_between(choice.get("name"), 1, MAX_CHOICE_NAME, (*p, "name"), out)
        value = choice.get("value")
        if isinstance(value, str):
            _max_len(value, MAX_CHOICE_VALUE, (*p, "value"), out)
        elif not isinstance(value, int | float) or isinstance(value, bool):
            out.append(FieldError((*p, "value"), "BASE_TYPE_REQUIRED", "This field is required"))
        if option_type == 3 and not isinstance(value, str):
            out.append(FieldError((*p, "value"), "BASE_TYPE_BAD_STRING", "Must be a string."))
        if option_type in (4, 10) and isinstance(value, str):
            out.append(FieldError((*p, "value"), "NUMBER_TYPE_COERCE", "Must be a number."))
        for loc, name in (choice.get("name_localizations") or {}).items():
            if loc not in VALID_LOCALES:
                out.append(
                    FieldError((*p, "name_localizations", loc), "LOCALE_INVALID", "Invalid locale")
                )
            _len_between(name, 1, MAX_CHOICE_NAME, (*p, "name_localizations", loc), out)
    return out


def validate_modal(data: Any) -> list[FieldError]:
    out: list[FieldError] = []
    if not isinstance(data, dict):
        return [FieldError(("data",), "DICT_TYPE_CONVERT", "Must be an object.")]
    _len_between(data.get("title"), 1, 45, ("data", "title"), out)
    seen: set[str] = set()
    _validate_custom_id(data, ("data",), out, set())
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        out.append(
            FieldError(
                ("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
            )
        )
    for i, top in enumerate(components):
        p: tuple[str | int, ...] = ("data", "components", i)
        ttype = top.get("type")
        if ttype == 1:
            inner = top.get("components") or []
            if len(inner) != 1:
                out.append(
                    FieldError(
                        (*p, "components"),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 1 in length.",
                    )
                )
            items = [(c, (*p, "components", j), True) for j, c in enumerate(inner)]
        elif ttype == 18:
            _len_between(top.get("label"), 1, 45, (*p, "label"), out)
            _max_len(top.get("description"), 100, (*p, "description"), out)
            items = [(top.get("component") or {}, (*p, "component"), False)]
        elif ttype == 10:
            continue
        else:
            out.append(
                FieldError(
                    p, "UNION_TYPE_CHOICES", f"Component type {ttype} is not allowed in a modal"
                )
            )
            continue
        for comp, cp, needs_label in items:
            ctype = comp.get("type")
            if ctype == 4:
                _validate_custom_id(comp, cp, out, seen)
                if needs_label:
                    _len_between(comp.get("label"), 1, 45, (*cp, "label"), out)
                _max_len(comp.get("placeholder"), 100, (*cp, "placeholder"), out)
                _max_len(comp.get("value"), 4000, (*cp, "value"), out)
                for key, low, high in (("min_length", 0, 4000), ("max_length", 1, 4000)):
                    v = comp.get(key)
                    if v is not None and not low <= v <= high:
                        out.append(
                            FieldError(
                                (*cp, key),
                                "NUMBER_TYPE_MAX",
                                f"int value should be between {low} and {high}.",
                            )
                        )
            elif ctype in SELECT_TYPES:
                _validate_select(comp, cp, out, seen)
            elif ctype in (19, 21, 22, 23):  # file upload, radio group, checkbox group, checkbox
                _validate_custom_id(comp, cp, out, seen)
            else:
                out.append(
                    FieldError(
                        cp,
                        "UNION_TYPE_CHOICES",
                        f"Component type {ctype} is not allowed in a modal",
                    )
                )
    return out


# --- application commands ------------------------------------------------------------------


def _validate_localizations(
    values: Any, p: tuple[str | int, ...], out: list[FieldError], *, name: bool, lowercase: bool
) -> None:
    if values is None:
        return
    if not isinstance(values, dict):
        out.append(FieldError(p, "DICT_TYPE_CONVERT", "Must be an object."))
        return
    for loc, text in values.items():
        lp = (*p, loc)
        if loc not in VALID_LOCALES:
            out.append(FieldError(lp, "LOCALE_INVALID", f"Invalid locale {loc!r}"))
        if name:
            _validate_name(text, lp, out, lowercase=lowercase)
        else:
            _len_between(text, 1, 100, lp, out)


def _validate_name(
    name: Any, p: tuple[str | int, ...], out: list[FieldError], *, lowercase: bool
) -> None:
    if not isinstance(name, str) or not COMMAND_NAME_RE.match(name):
        out.append(
            FieldError(p, "APPLICATION_COMMAND_INVALID_NAME", f"Command name {name!r} is invalid")
        )
    elif lowercase and name != name.lower():
        out.append(
            FieldError(
                p, "APPLICATION_COMMAND_INVALID_NAME", f"Command name {name!r} must be lowercase"
            )
        )


#: Discord's range of INTEGER and NUMBER option values (and their min/max): -2^53..2^53.
OPTION_NUMBER_LIMIT = 2**53


def option_value_error(value: Any, otype: int) -> str | None:
    """Why Discord refuses ``value`` for an INTEGER (4) / NUMBER (10) option, or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "Must be a number."
    if otype == 4 and not isinstance(value, int):
        return "Must be an integer."
    if value > OPTION_NUMBER_LIMIT:
        return f"int value should be less than or equal to {OPTION_NUMBER_LIMIT}."
    if value < -OPTION_NUMBER_LIMIT:
        return f"int value should be greater than or equal to {-OPTION_NUMBER_LIMIT}."
    return None


def _validate_number_bounds(
    opt: dict[str, Any], otype: int, op: tuple[str | int, ...], out: list[FieldError]
) -> None:
    """min_value / max_value (and choice values) of INTEGER and NUMBER options."""
    for key in ("min_value", "max_value"):
        v = opt.get(key)
        if v is not None and (problem := option_value_error(v, otype)):
            out.append(FieldError((*op, key), "NUMBER_TYPE_MAX", problem))
    low, high = opt.get("min_value"), opt.get("max_value")
    if isinstance(low, int | float) and isinstance(high, int | float) and low > high:
        out.append(
            FieldError((*op, "min_value"), "NUMBER_TYPE_MAX", "min_value cannot exceed max_value")
        )
    for j, choice in enumerate(opt.get("choices") or []):
        v = choice.get("value")
        if (problem := option_value_error(v, otype)) is not None:
            out.append(FieldError((*op, "choices", j, "value"), "NUMBER_TYPE_MAX", problem))


def _validate_options(
    options: Any, p: tuple[str | int, ...], out: list[FieldError], depth: int
) -> int:
    """Validate an options list; return the number of characters it contributes."""
    chars = 0
    if not isinstance(options, list):
        out.append(FieldError(p, "LIST_TYPE_CONVERT", "Must be an array."))
        return 0
    if len(options) > 25:
        out.append(FieldError(p, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    names: set[str] = set()
    seen_optional = False
    kinds = {1 if o.get("type") in (1, 2) else 0 for o in options}
    if len(kinds) > 1:
        out.append(
            FieldError(
                p,
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Sub-commands and groups cannot be mixed with other options",
            )
        )
    for i, opt in enumerate(options):
        op = (*p, i)
        otype = opt.get("type")
        name = opt.get("name")
        _validate_name(name, (*op, "name"), out, lowercase=True)
        _len_between(opt.get("description"), 1, 100, (*op, "description"), out)
        chars += len(name or "") + len(opt.get("description") or "")
        _validate_localizations(
            opt.get("name_localizations"),
            (*op, "name_localizations"),
            out,
            name=True,
            lowercase=True,
        )
        _validate_localizations(
            opt.get("description_localizations"),
            (*op, "description_localizations"),
            out,
            name=False,
            lowercase=False,
        )
        if name in names:
            out.append(
                FieldError(
                    (*op, "name"),
                    "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                    "Option names must be unique",
                )
            )
        names.add(name)
        if otype == 2:
            if depth > 0:
                out.append(
                    FieldError(
                        (*op, "type"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Sub-command groups cannot be nested",
                    )
                )
            subs = opt.get("options") or []
            if any(s.get("type") != 1 for s in subs):
                out.append(
                    FieldError(
                        (*op, "options"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Sub-command groups may only contain sub-commands",
                    )
                )
            chars += _validate_options(subs, (*op, "options"), out, depth + 1)
        elif otype == 1:
            if depth > 1:
                out.append(
                    FieldError(
                        (*op, "type"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Too deeply nested",
                    )
                )
            chars += _validate_options(opt.get("options") or [], (*op, "options"), out, 2)
        elif otype in (3, 4, 5, 6, 7, 8, 9, 10, 11):
            if opt.get("required"):
                if seen_optional:
                    out.append(
                        FieldError(
                            (*op, "required"),
                            "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                            "Required options must be placed before non-required options",
                        )
                    )
            else:
                seen_optional = True
            choices = opt.get("choices")
            if choices:
                if opt.get("autocomplete"):
                    out.append(
                        FieldError(
                            (*op, "autocomplete"),
                            "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                            "Autocomplete cannot be used with choices",
                        )
                    )
                if len(choices) > MAX_CHOICES:
                    out.append(
                        FieldError(
                            (*op, "choices"),
                            "BASE_TYPE_MAX_LENGTH",
                            "Must be 25 or fewer in length.",
                        )
                    )
                for j, choice in enumerate(choices):
                    cp = (*op, "choices", j)
                    _len_between(choice.get("name"), 1, 100, (*cp, "name"), out)
                    if isinstance(choice.get("value"), str):
                        _max_len(choice["value"], 100, (*cp, "value"), out)
                        chars += len(choice["value"])
                    chars += len(choice.get("name") or "")
                    _validate_localizations(
                        choice.get("name_localizations"),
                        (*cp, "name_localizations"),
                        out,
                        name=False,
                        lowercase=False,
                    )
            if otype in (4, 10):
                _validate_number_bounds(opt, otype, op, out)
            for key, low, high in (("min_length", 0, 6000), ("max_length", 1, 6000)):
                v = opt.get(key)
                if v is not None and not low <= v <= high:
                    out.append(
                        FieldError(
                            (*op, key),
                            "NUMBER_TYPE_MAX",
                            f"int value should be between {low} and {high}.",
                        )
                    )
        else:
            out.append(
                FieldError((*op, "type"), "BASE_TYPE_CHOICES", f"Unknown option type {otype!r}")
            )
    return chars


def validate_command(cmd: Any, index: int | None = None) -> list[FieldError]:
    out: list[FieldError] = []
    p: tuple[str | int, ...] = () if index is None else (index,)
    if not isinstance(cmd, dict):
        return [FieldError(p, "DICT_TYPE_CONVERT", "Must be an object.")]
    ctype = cmd.get("type", 1)
    name = cmd.get("name")
    if ctype == 1:
        _validate_name(name, (*p, "name"), out, lowercase=True)
        _len_between(cmd.get("description"), 1, 100, (*p, "description"), out)
        _validate_localizations(
            cmd.get("name_localizations"),
            (*p, "name_localizations"),
            out,
            name=True,
            lowercase=True,
        )
        _validate_localizations(
            cmd.get("description_localizations"),
            (*p, "description_localizations"),
            out,
            name=False,
            lowercase=False,
        )
        chars = len(name or "") + len(cmd.get("description") or "")
        chars += _validate_options(cmd.get("options") or [], (*p, "options"), out, 0)
        if chars > 4000:
            out.append(
                FieldError(
                    p, "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (4000)"
                )
            )
    elif ctype in (2, 3):
        _len_between(name, 1, 32, (*p, "name"), out)
        if cmd.get("description"):
            out.append(
                FieldError(
                    (*p, "description"),
                    "APPLICATION_COMMAND_INVALID",
                    "Context menu commands cannot have a description",
                )
            )
        if cmd.get("options"):
            out.append(
                FieldError(
                    (*p, "options"),
                    "APPLICATION_COMMAND_INVALID",
                    "Context menu commands cannot have options",
                )
            )
    else:
        out.append(FieldError((*p, "type"), "BASE_TYPE_CHOICES", f"Unknown command type {ctype!r}"))
    return out


def validate_command_set(cmds: list[dict[str, Any]]) -> list[FieldError]:
    out: list[FieldError] = []
    seen: set[tuple[int, str]] = set()
    counts = {1: 0, 2: 0, 3: 0}
    for i, cmd in enumerate(cmds):
        out.extend(validate_command(cmd, i))
        if not isinstance(cmd, dict):
            continue
        key = (int(cmd.get("type", 1)), str(cmd.get("name")))
        if key in seen:
            out.append(
                FieldError(
                    (i, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique ({key[1]!r})",
                )
            )
        seen.add(key)
        counts[key[0]] = counts.get(key[0], 0) + 1
    for ctype, limit in ((1, 100), (2, 15), (3, 15)):
        if counts.get(ctype, 0) > limit:
            out.append(
                FieldError(
                    (),
                    "APPLICATION_COMMANDS_TOO_MANY",
                    f"Too many commands of type {ctype} (max {limit})",
                )
            )
    return out
