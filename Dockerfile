# meldhall server image: `docker build -t meldhall .` (docs/operations.md, compose.yaml)
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    MELDHALL_HOST=0.0.0.0 MELDHALL_PORT=8000 MELDHALL_DATA=/data MELDHALL_LOG_FORMAT=json

WORKDIR /app
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install --no-cache-dir . && useradd --system --home /data meldhall \
    && mkdir -p /data && chown meldhall /data
USER meldhall
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"
# The schema is brought up to date first (a no-op when it is), then the server starts.
CMD ["sh", "-c", "meldhall db upgrade && exec meldhall serve"]
