# Loupe's image: the API by default (`loupe serve`); the same image runs `loupe worker` and
# `loupe migrate`. docker-compose.yml shows the production layout.
FROM python:3.11-slim

# LOUPE_HOST: inside a container the loopback default would be unreachable from outside.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    LOUPE_HOST=0.0.0.0 \
    LOUPE_PORT=8000

# The installed package looks for the Alembic scripts in ./migrations, so they stay in WORKDIR;
# ./var holds the SQLite file of the embedded default and must be writable by the user.
WORKDIR /app
COPY pyproject.toml ./
COPY app ./app
COPY workers ./workers
COPY migrations ./migrations
# `loupe compare` is the Python SDK's gate, so the SDK is installed too.
COPY sdk/python ./sdk/python
RUN pip install ./sdk/python . \
    && rm -rf build ./*.egg-info sdk \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin loupe \
    && mkdir var \
    && chown loupe:loupe var

USER loupe
EXPOSE 8000

HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('LOUPE_PORT', '8000') + '/healthz', timeout=4)"]

CMD ["loupe", "serve"]
