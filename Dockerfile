# syntax=docker/dockerfile:1
# hermes-sessions: the Hermes agent's session history (state.db) over HTTP.
# Build: docker build -t hermes-sessions .      Run: docker compose up -d

# --- build stage: a virtualenv with the app and its pinned dependencies -------------------------------
FROM python:3.11-slim-trixie AS builder
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /opt/venv
WORKDIR /app
COPY pyproject.toml README.md ./
COPY app ./app
COPY migrations ./migrations
# Editable install: the Alembic scripts are found next to the package (migrations/ beside app/), so the
# source stays at /app in the runtime image too. Byte-compile now, because the runtime filesystem is read-only.
RUN /opt/venv/bin/pip install -e . \
    && /opt/venv/bin/python -m compileall -q /app/app /app/migrations

# --- runtime stage: same base, no build tools, non-root --------------------------------------------------
FROM python:3.11-slim-trixie AS runtime
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HERMES_HOME=/data \
    HERMES_HOST=0.0.0.0 \
    HERMES_PORT=8643
RUN useradd --uid 10001 --user-group --no-create-home --home-dir /data --shell /usr/sbin/nologin hermes \
    && mkdir -p /data \
    && chown hermes:hermes /data
COPY --from=builder /opt/venv /opt/venv
COPY --from=builder /app /app
WORKDIR /app
USER 10001:10001
# state.db, its WAL, attachments and the generated bearer token (api_token, mode 0600) live here.
# Use a named volume: WAL needs a local filesystem with working shared memory, not a network mount.
VOLUME /data
EXPOSE 8643
# Slim images have no curl; /healthz never touches the database.
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8643/healthz', timeout=2)"]
# Exec form: uvicorn is PID 1, receives SIGTERM, finishes in-flight requests and drains the writer.
STOPSIGNAL SIGTERM
CMD ["hermes", "serve"]
