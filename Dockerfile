FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DATABASE_PATH=/data/playbychat.sqlite3
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot bot
COPY cogs cogs
COPY games games
COPY rendering rendering
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 player \
    && mkdir -p /data && chown player /data
USER player
# The SQLite file lives on a volume so tables survive container upgrades.
VOLUME ["/data"]
# DISCORD_TOKEN (required), DEV_GUILD_ID, LOG_LEVEL, DISCORD_API_BASE, DISCORD_GATEWAY_URL come from the environment.
CMD ["python", "-m", "bot", "run"]
