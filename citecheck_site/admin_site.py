"""The admin site: every registered admin shows URL fields through the one outside-link helper.

Django renders a URL field as `<a href="…">` with no `rel` (and links any scheme its
URLValidator accepts, ftp included), on change pages, in inlines and as the "Currently:" link of
the URL widget. `CitecheckAdminSite.register` mixes `SafeLinksMixin` into every ModelAdmin and
its inlines, so no admin can forget it:

- a read-only URL field is shown by `outside_link` (http/https only, credentials stripped,
  `rel="noopener noreferrer nofollow"`, otherwise plain text);
- a URL column of a change list is plain text (the row's own link goes to its change page);
- an editable URL field is a plain input, without Django's "Currently:" link.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.db import models
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString

from citecheck.urlnorm import strip_credentials
from citecheck_site.templatetags.outside_links import outside_link

_LINK = "_outside_link"
_TEXT = "_url_text"


def _url_field_names(model: type[models.Model]) -> dict[str, models.URLField]:
    return {f.name: f for f in model._meta.concrete_fields if isinstance(f, models.URLField)}


def _map_names(names: Sequence[Any], urls: dict[str, Any], suffix: str) -> list[Any]:
    mapped: list[Any] = []
    for name in names:
        if isinstance(name, list | tuple):
            mapped.append(type(name)(_map_names(name, urls, suffix)))
        elif isinstance(name, str) and name in urls:
            mapped.append(name + suffix)
        else:
            mapped.append(name)
    return mapped


def _link_display(field: models.URLField) -> Callable[[models.Model], SafeString]:
    def show(obj: models.Model) -> SafeString:
        return outside_link(getattr(obj, field.attname, ""))

    show.short_description = field.verbose_name  # type: ignore[attr-defined]
    return show


def _text_display(field: models.URLField) -> Callable[[models.Model], SafeString]:
    def show(obj: models.Model) -> SafeString:
        value = getattr(obj, field.attname, "") or ""
        return format_html("{}", strip_credentials(value) if isinstance(value, str) else value)

    show.short_description = field.verbose_name  # type: ignore[attr-defined]
    show.admin_order_field = field.name  # type: ignore[attr-defined]
    return show


class SafeLinksMixin:
    """See the module docstring. Works for ModelAdmin and InlineModelAdmin alike."""

    model: type[models.Model]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._url_fields = _url_field_names(self.model)
        for name, field in self._url_fields.items():
            setattr(self, name + _LINK, _link_display(field))
            setattr(self, name + _TEXT, _text_display(field))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return _map_names(super().get_readonly_fields(request, obj), self._url_fields, _LINK)  # type: ignore[misc]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return _map_names(super().get_fields(request, obj), self._read_only_urls(request, obj), _LINK)  # type: ignore[misc]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        urls = self._read_only_urls(request, obj)
        return [(title, {**options, "fields": _map_names(options.get("fields", ()), urls, _LINK)})
                for title, options in super().get_fieldsets(request, obj)]  # type: ignore[misc]

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> Any:
        # The original names of read-only URL fields stay out of the form (shown by the display).
        excluded = list(super().get_exclude(request, obj) or [])  # type: ignore[misc]
        return excluded + [name for name in self._read_only_urls(request, obj) if name not in excluded] or None

    def get_list_display(self, request: HttpRequest) -> Any:
        return _map_names(super().get_list_display(request), self._url_fields, _TEXT)  # type: ignore[misc]

    def get_list_display_links(self, request: HttpRequest, list_display: Any) -> Any:
        links = super().get_list_display_links(request, list_display)  # type: ignore[misc]
        return links if links is None else _map_names(links, self._url_fields, _TEXT)

    def formfield_for_dbfield(self, db_field: models.Field, request: HttpRequest, **kwargs: Any) -> Any:
        if isinstance(db_field, models.URLField):
            kwargs["widget"] = forms.URLInput(attrs={"class": "vURLField"})
        return super().formfield_for_dbfield(db_field, request, **kwargs)  # type: ignore[misc]

    def _read_only_urls(self, request: HttpRequest, obj: Any) -> dict[str, Any]:
        readonly = set(super().get_readonly_fields(request, obj))  # type: ignore[misc]
        return {name: field for name, field in self._url_fields.items() if name in readonly}


def with_safe_links(admin_class: type[Any]) -> type[Any]:
    """`admin_class` (and its inlines) with `SafeLinksMixin` mixed in, once."""
    if issubclass(admin_class, SafeLinksMixin):
        return admin_class
    inlines = [with_safe_links(inline) for inline in getattr(admin_class, "inlines", [])]
    attrs = {"__module__": admin_class.__module__, "__qualname__": admin_class.__qualname__, "inlines": inlines}
    return type(admin_class.__name__, (SafeLinksMixin, admin_class), attrs)


class CitecheckAdminSite(admin.AdminSite):
    def register(self, model_or_iterable: Any, admin_class: Any = None, **options: Any) -> None:
        super().register(model_or_iterable, with_safe_links(admin_class or admin.ModelAdmin), **options)


class CitecheckAdminConfig(AdminConfig):
    default_site = "citecheck_site.admin_site.CitecheckAdminSite"
