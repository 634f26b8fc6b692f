"""Adding a golden pair from the source page: the passage picker lists that source's passages of
one version (heading path, ids, an excerpt), searched anywhere in their text."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from citecheck.errors import ServiceError
from desk.forms import GoldenPairForm
from desk.selectors import pair_passage_picker
from desk.views.common import int_or_none, render_desk
from reviews.testpairs import testpair_create


def pair_add_page(request: HttpRequest, source_id: int) -> HttpResponse:
    """GET (with `q` and `version`) or POST `action=search`: the form with the picker searched;
    POST `action=add`: add the pair and go back to the source page's golden pairs."""
    if not request.user.has_perm("sources.view_source"):
        raise PermissionDenied
    data = request.POST if request.method == "POST" else request.GET
    picker = pair_passage_picker(source_id=source_id, version_number=int_or_none(data.get("version")), search=data.get("q", ""))
    if picker is None:
        raise Http404("There is no such source.")
    adding = request.method == "POST" and request.POST.get("action") == "add"
    form = GoldenPairForm(request.POST if adding else None, initial={k: v for k, v in data.items() if k in GoldenPairForm.base_fields})
    if adding and form.is_valid():
        try:
            fields = form.cleaned_data
            pair = testpair_create(actor=request.user, source_id=source_id, claim=fields["claim"], question=fields["question"],
                                   expected_status=fields["expected_status"], expected_passage_id=fields["expected_passage"],
                                   expected_quote=fields["expected_quote"])
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            back = reverse("admin:desk-source", args=[source_id])
            version = f"?version={picker.version.number}" if picker.version is not None else ""
            shown = f"version {picker.version.number}" if picker.version is not None else "any version"
            messages.success(request, f"Added the golden pair “{pair.claim[:80]}” to {picker.source}. It has not run against {shown} yet: "
                                      "run the golden pairs again to test it.")
            return redirect(f"{back}{version}#pairs-h")
    chosen = form["expected_passage"].value()
    return render_desk(request, "desk/pair_add.html", f"Add a golden pair to {picker.source}", picker=picker, form=form,
                       chosen=str(chosen) if chosen not in (None, "") else "", can_add=request.user.has_perm("reviews.add_testpair"))
