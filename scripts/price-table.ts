/**
 * Writes src/model/price-table.json: the list prices of the Anthropic,
 * OpenAI and Google models, taken from the installed
 * `@pydantic/genai-prices` (a maintained price catalogue), reduced to what
 * xcsh prices — text input, output, cache reads and cache writes, with
 * their long-context tiers and dated changes. The table ships in the
 * binary; loading the catalogue itself would cost a short run tens of
 * milliseconds. Run after upgrading the package (a test fails until then):
 *
 *   bun scripts/price-table.ts
 *
 * @module
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { priceTableFromCatalogue } from "./price-table-source.ts";

const out = fileURLToPath(new URL("../src/model/price-table.json", import.meta.url));
writeFileSync(out, JSON.stringify(priceTableFromCatalogue(), null, 1) + "\n");
console.log(`wrote ${out}`);
