"""The API's JSON parser: the site's one reader of a JSON body (ddz_site.api.request_json), so a
body
that cannot be read is a ``parse_error`` in plain, translated words (never Python's)."""

from __future__ import annotations

from typing import IO, Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

from ddz_site.api.request_json import BodyNotJSON, read_json


class JSONParser(parsers.JSONParser):
    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: dict[str, Any] | None = None,
    ) -> Any:
        try:
            return read_json(stream.read())
        except BodyNotJSON as exc:
            raise ParseError(exc.message) from None
