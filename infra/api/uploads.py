"""No page or endpoint of the site takes a file: a file part in a form body is refused as it starts.

Django's DATA_UPLOAD_MAX_MEMORY_SIZE counts a body's fields, not its files, which its default handlers stream to
memory and then to a temporary file whatever their size: anyone, logged in or not, could fill the disk with one
request. This handler, the only one (`FILE_UPLOAD_HANDLERS`), stops at the first file part with
RequestDataTooBig: the API answers its JSON 413 `too_large`, a web page Django's 400."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.core.files.uploadhandler import FileUploadHandler


class RefuseFiles(FileUploadHandler):
    def new_file(self, *args: Any, **kwargs: Any) -> None:
        raise RequestDataTooBig("This site takes no file uploads.")

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:  # never reached: new_file refuses
        return None

    def file_complete(self, file_size: int) -> None:
        return None
