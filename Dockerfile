# Boardroom's game server in a container: docs/internet.md, "In a container".
#
#   docker build -t boardroom .
#   docker run -d --name boardroom -v boardroom-data:/data -p 8765:8765 boardroom
#
# Flags after the image's name go to `boardroom serve`; every setting is also a
# BOARDROOM_* variable (docker run -e ...). tests/e2e/test_e2e_dockerfile.py checks
# this file's command, variables and health check against the real server.
FROM python:3.11-slim

# Logs reach `docker logs` as they are written; no .pyc files written at run time.
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

# The project without its test and benchmark extras. Only what the package is
# built from is copied (README.md is its long description).
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY shared ./shared
COPY server ./server
COPY client ./client
RUN pip install . && rm -rf /src

# Not root. /data is the volume with the SQLite file (and its -wal, -shm and
# .lock beside it), so the user owns the folder, not just the file. The
# compiled solver's cache (numba) goes in the user's home, which it can write.
RUN useradd --create-home --uid 10001 boardroom \
    && mkdir /data \
    && chown boardroom:boardroom /data
USER boardroom
WORKDIR /home/boardroom
ENV BOARDROOM_HOST=0.0.0.0 \
    BOARDROOM_PORT=8765 \
    BOARDROOM_DATABASE=/data/boardroom.db \
    NUMBA_CACHE_DIR=/home/boardroom/.cache/boardroom/numba
VOLUME /data
EXPOSE 8765

# /healthz answers while the event loop runs. No curl in a slim image: Python's own.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('BOARDROOM_PORT', '8765') + '/healthz', timeout=4)"]

# SIGTERM (docker stop) shuts the server down gracefully: clients told, games saved.
# The stop may take up to 20 s (docs/operations.md, "Stopping"): `docker stop -t 30`.
ENTRYPOINT ["boardroom", "serve"]
