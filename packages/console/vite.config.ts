// Builds the console into dist/ (index.html and hashed assets), which the server serves at `/`.
// `npm run dev -w @toolhost/console` serves it with hot reload, the API proxied to a running server.
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
  server: { proxy: { "/v1": process.env.TOOLHOST_URL ?? "http://127.0.0.1:8080" } },
});
