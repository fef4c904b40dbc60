"""Responses travel compressed (issue 25, point 21): HTML gzipped by Django's middleware
with its BREACH mitigation (random bytes in the gzip header, so that a response's length
does not give away a secret guessed one character at a time), and the static files
collected beside their brotli and gzip versions, which WhiteNoise serves to a browser that
takes them."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from trainer.live.services import open_table

HTMX_GZIP = {"HX-Request": "true", "Accept-Encoding": "gzip, deflate, br"}


@pytest.mark.django_db
def test_a_live_tables_part_is_gzipped_and_its_length_varies(client: Client) -> None:
    ann = get_user_model().objects.create_user("ann")
    row = open_table(user_id=ann.pk, bots=[], seats=[3], buy_in=500, now=timezone.now())
    url = reverse("trainer:live-table-state", args=[row.pk])
    plain = client.get(url, headers={"HX-Request": "true"})
    answers = [client.get(url, headers=HTMX_GZIP) for _n in range(6)]
    for answer in answers:
        assert answer["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in answer["Vary"]
        shown = gzip.decompress(answer.content)
        assert b'id="live"' in shown
        assert len(shown) == len(plain.content)  # the same part (its CSRF tokens differ)
        assert len(answer.content) < len(plain.content) / 3
    assert len({len(answer.content) for answer in answers}) > 1  # the random bytes


@pytest.mark.django_db
def test_without_gzip_in_accept_encoding_the_answer_is_plain(client: Client) -> None:
    answer = client.get(reverse("trainer:live-lobby"))
    assert not answer.has_header("Content-Encoding")
    assert b"<html" in answer.content


def test_collected_static_files_have_brotli_versions(
    tmp_path: Path,
) -> None:
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages):
        call_command("collectstatic", "--noinput", verbosity=0)
    styles = [p for p in tmp_path.glob("css/site.*.css") if p.suffix == ".css"]
    assert styles
    brotli = styles[0].with_name(styles[0].name + ".br")
    assert brotli.exists()
    assert brotli.stat().st_size < styles[0].stat().st_size / 3
