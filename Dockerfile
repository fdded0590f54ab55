# One image for both roles: `server` (default) and `worker` (see docker-compose.yml).
FROM node:20-bookworm-slim
ENV NODE_ENV=production ONNXRUNTIME_NODE_INSTALL_CUDA=skip
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm install --no-audit --no-fund --loglevel=error
COPY . .
RUN npm run build
USER node
EXPOSE 3000
CMD ["node", "--import", "tsx", "server/src/main.ts"]
