# One image for every Gatehouse app; choose it with the APP build argument:
#   docker build -f docker/node.Dockerfile --build-arg APP=auth-runtime -t gatehouse/auth-runtime .
# APP=migrate builds the one-shot migration image.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
# The hosted sign-in pages (dist/auth-pages) are served by the auth runtime for OIDC projects.
RUN npm run build && npm run build:pages && npm prune --omit=dev

FROM node:20-bookworm-slim AS runtime
ARG APP=auth-runtime
ENV NODE_ENV=production APP=${APP}
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/tools/register.js ./tools/register.js
COPY --from=build /src/tsconfig.base.json ./tsconfig.base.json
COPY --from=build /src/package.json ./package.json
USER node
CMD ["sh", "-c", "if [ \"$APP\" = migrate ]; then exec node -r ./tools/register.js dist/tools/scripts/migrate.js; else exec node -r ./tools/register.js dist/apps/$APP/src/main.js; fi"]
