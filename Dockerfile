FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TEAHOUSE_DATABASE=/data/teahouse.db

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY images ./images
COPY docs ./docs
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 teahouse \
    && mkdir -p /data && chown teahouse /data

USER teahouse
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
