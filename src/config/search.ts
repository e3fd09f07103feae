/**
 * What `search:` in config means: the provider behind the `web_search` tool.
 * `provider` is `brave` (Brave Search API) or `tavily`; `apiKeyEnv` names the
 * variable holding the key (default `BRAVE_API_KEY` or `TAVILY_API_KEY`);
 * `baseURL` replaces the provider's API address (a proxy, or a local server
 * in tests). Pure: throws {@link SearchConfigError} naming the key.
 *
 * @example
 * ```ts
 * checkSearchConfig({ provider: "brave" });
 * // { provider: "brave", apiKeyEnv: "BRAVE_API_KEY", baseURL: "https://api.search.brave.com/res/v1" }
 * ```
 *
 * @module
 */
import type { SearchConfig } from "../types.ts";
import { describeValue, isRecord } from "../formats/values.ts";

export const SEARCH_PROVIDERS: Readonly<
  Record<SearchConfig["provider"], { apiKeyEnv: string; baseURL: string }>
> = {
  brave: { apiKeyEnv: "BRAVE_API_KEY", baseURL: "https://api.search.brave.com/res/v1" },
  tavily: { apiKeyEnv: "TAVILY_API_KEY", baseURL: "https://api.tavily.com" },
};

/** A problem with one key of `search`. */
export class SearchConfigError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

/** The keys `search` may have. */
export const SEARCH_KEYS = ["provider", "apiKeyEnv", "baseURL"] as const;

/** Checks `search` and applies the provider's defaults. */
export function checkSearchConfig(raw: unknown): SearchConfig {
  if (!isRecord(raw)) {
    throw new SearchConfigError("search", `'search' must be a mapping, got ${describeValue(raw)}`);
  }
  const provider = raw.provider;
  if (typeof provider !== "string" || !Object.hasOwn(SEARCH_PROVIDERS, provider)) {
    throw new SearchConfigError(
      "search.provider",
      `'search.provider' must be one of ${Object.keys(SEARCH_PROVIDERS).join(", ")}, got ${
        provider === undefined ? "nothing" : describeValue(provider)
      }`,
    );
  }
  const defaults = SEARCH_PROVIDERS[provider as SearchConfig["provider"]];
  let apiKeyEnv = defaults.apiKeyEnv;
  if (raw.apiKeyEnv !== undefined) {
    if (typeof raw.apiKeyEnv !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw.apiKeyEnv)) {
      throw new SearchConfigError(
        "search.apiKeyEnv",
        `'search.apiKeyEnv' must be the name of an environment variable, got ${
          describeValue(raw.apiKeyEnv)
        }`,
      );
    }
    apiKeyEnv = raw.apiKeyEnv;
  }
  let baseURL = defaults.baseURL;
  if (raw.baseURL !== undefined) {
    if (typeof raw.baseURL !== "string" || !/^https?:\/\/\S+$/.test(raw.baseURL.trim())) {
      throw new SearchConfigError(
        "search.baseURL",
        `'search.baseURL' must be an http(s) URL, got ${describeValue(raw.baseURL)}`,
      );
    }
    baseURL = raw.baseURL.trim().replace(/\/+$/, "");
  }
  return { provider: provider as SearchConfig["provider"], apiKeyEnv, baseURL };
}
