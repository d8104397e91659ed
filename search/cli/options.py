"""The options of `search`, `context` and `explain`, generated from the request model.

Every option of `legalsearch.query.models.SearchRequest` becomes one click option here: its flag
and placeholder come from the field's extras, its help from the field's description, its choices
from its Literal type, and the default shown is the model's own. Nothing is written twice: a
default changed in the model changes `--help`, and a test checks that every request option is a
CLI option. Options whose field says `everyday` are shown by `--help`; the tuning knobs only by
`--help-all`, each tagged with its group.

Every generated option defaults to None ("not given"), so a profile's value is not overwritten by
a click default: model defaults < `--profile` < `--set key=value` < an option given by name.
"""

from __future__ import annotations

import types
import typing
from datetime import date
from typing import Any, Literal, get_args, get_origin

import click
from legalsearch.query.models import option_fields


def _base(annotation: Any) -> Any:
    """The annotation without Optional, Annotated and `from __future__` strings resolved away."""
    if get_origin(annotation) is typing.Annotated:
        annotation = get_args(annotation)[0]
    if get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        annotation = args[0] if len(args) == 1 else annotation
    return annotation


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value) if value else "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)


def _one(flat: str, group: str | None, info) -> click.Option:
    extra = info.json_schema_extra or {}
    flags = extra.get("cli") or "--" + flat.replace("_", "-")
    annotation = _base(info.annotation)
    help_text = info.description or ""
    tag = f"({group}) " if group and not extra.get("everyday") else ""
    kwargs: dict[str, Any] = {"default": None, "hidden": not extra.get("everyday"),
                              "metavar": extra.get("metavar")}
    if annotation is bool:
        if "/" not in flags:
            flags = f"{flags}/--no-{flags.removeprefix('--')}"
        kwargs.pop("metavar")
    elif get_origin(annotation) is Literal:
        kwargs["type"] = click.Choice(get_args(annotation))
        kwargs.pop("metavar")
    elif get_origin(annotation) is tuple and get_args(annotation)[:1] == (str,):
        kwargs["multiple"] = True
        help_text += " Repeatable."
    elif annotation in (int, float):
        kwargs["type"] = annotation
    elif annotation is date:
        kwargs["type"] = str  # the model reads the date: a bad one is a clear error, --json included
    else:
        kwargs["type"] = str  # e.g. "0.3,0.7": the model splits and checks it
    default = info.get_default()
    if not kwargs.get("multiple") or default:
        help_text += f"  [default: {_show(default)}]"
    return click.Option([flags], help=tag + help_text, **kwargs)


def generated() -> list[click.Option]:
    """One click option per request option, everyday ones first; each dest is the option's flat name."""
    rows = option_fields()
    options = []
    for flat, group, _field, info in sorted(rows, key=lambda r: not (r[3].json_schema_extra or {}).get("everyday")):
        option = _one(flat, group, info)
        option.name = flat
        options.append(option)
    return options


def _show_all(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    for param in ctx.command.params:
        if isinstance(param, click.Option):
            param.hidden = False
    click.echo(ctx.get_help())
    ctx.exit()


def _profiles_help() -> str:
    from legalsearch.query import profiles

    return ("Named preset of the tuning options: " + ", ".join(profiles.names())
            + " (or the path of a profile JSON file); `legalsearch profiles list` shows what each sets.  "
              "[default: default]")


def request_options(f):
    """The request options of a command (`search`, `context`, `explain`): the generated ones,
    `--profile`, `--set` and `--help-all`. The command receives them as keyword arguments named
    by flat option name, plus `profile` and `set_options`."""
    extra = [
        click.Option(["--profile"], default=None, metavar="NAME", help=_profiles_help()),
        click.Option(["--set", "set_options"], multiple=True, metavar="KEY=VALUE",
                     help="Any other request option by its flat name (repeatable), e.g. --set rerank_depth=32 "
                          "--set routing=off; `--help-all` lists them."),
        click.Option(["--help-all"], is_flag=True, expose_value=False, is_eager=True, callback=_show_all,
                     help="Show every option, the tuning knobs included, and exit."),
    ]
    params = getattr(f, "__click_params__", [])
    # click applies decorators bottom-up and reverses __click_params__ once: keep declaration order
    for option in reversed([*generated(), *extra]):
        params.append(option)
    f.__click_params__ = params
    return f


def given(options: dict[str, Any]) -> dict[str, Any]:
    """The request options a command line gave (None and empty repeatables are "not given")."""
    return {k: v for k, v in options.items() if v is not None and v != ()}
