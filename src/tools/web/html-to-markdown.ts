/**
 * Turns an HTML page into readable Markdown: headings (`#`), paragraphs,
 * links (`[text](absolute url)`), lists (`-` and `1.`, nested by indent),
 * preformatted blocks (fenced) and inline code, emphasis, images as their alt
 * text, table rows as `|`-separated lines. Script, style, template, SVG and
 * other non-text elements are dropped with everything inside them, as are
 * comments. Character references are decoded. The `<title>` comes first.
 * Forgiving like a browser: unclosed and stray tags never fail it. Pure.
 *
 * @example
 * ```ts
 * htmlToMarkdown('<h1>Hi</h1><p>See <a href="/x">x</a></p><script>evil()</script>', "https://a.test/");
 * // "# Hi\n\nSee [x](https://a.test/x)"
 * ```
 *
 * @module
 */
import { decodeEntities } from "./html-entities.ts";

/** Elements dropped with their whole content. */
const DROPPED = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "math",
  "iframe",
  "object",
  "canvas",
  "select",
  "button",
]);

/** Elements that start and end a block (a blank line around them). */
const BLOCKS = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "header",
  "footer",
  "nav",
  "aside",
  "blockquote",
  "figure",
  "figcaption",
  "form",
  "fieldset",
  "table",
  "dl",
  "address",
  "details",
  "summary",
  "body",
]);

/** Marks kept out of whitespace normalisation, replaced at the end. */
const INDENT = "\u0001";
const PRE_MARK = "\u0002";

interface OpenLink {
  href: string;
  start: number;
}

interface ListFrame {
  ordered: boolean;
  next: number;
}

interface Tag {
  /** Index just past the tag's `>`. */
  end: number;
  closing: boolean;
  name: string;
  attrs: string;
  selfClosing: boolean;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isNameChar(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 57) || c === 45;
}

/** Whether the text before `j` (inside a tag) ends with `=` and spaces. */
function afterEquals(html: string, j: number, from: number): boolean {
  let k = j - 1;
  while (
    k >= from && (html[k] === " " || html[k] === "\t" || html[k] === "\n" || html[k] === "\r")
  ) k--;
  return k >= from && html[k] === "=";
}

/**
 * The tag starting at `html[i] === "<"`, or undefined when that `<` starts
 * no tag (it is then text). Scans to the `>` that is not inside a quoted
 * value, once: the whole conversion stays linear in the page's length.
 */
function readTag(html: string, i: number): Tag | undefined {
  let j = i + 1;
  const closing = html[j] === "/";
  if (closing) j++;
  if (!isLetter(html.charCodeAt(j))) return undefined;
  const nameStart = j;
  while (j < html.length && isNameChar(html.charCodeAt(j))) j++;
  const name = html.slice(nameStart, j).toLowerCase();
  const attrStart = j;
  let quote = "";
  let quoteAt = -1;
  for (; j < html.length; j++) {
    const c = html[j];
    if (quote) {
      if (c === quote) quote = "";
      continue;
    }
    if (c === '"' || c === "'") {
      // Only a quote that starts a value opens one (`a="…"`, `a='…'`).
      if (afterEquals(html, j, attrStart)) {
        quote = c;
        quoteAt = j;
      }
      continue;
    }
    if (c === ">") break;
  }
  if (quote) {
    // An unclosed quote: end the tag at the first `>` after it instead.
    const gt = html.indexOf(">", quoteAt);
    if (gt === -1) return { end: html.length, closing, name, attrs: "", selfClosing: false };
    j = gt;
  }
  if (j >= html.length) return { end: html.length, closing, name, attrs: "", selfClosing: false };
  const attrs = html.slice(attrStart, j);
  return { end: j + 1, closing, name, attrs, selfClosing: attrs.trimEnd().endsWith("/") };
}

const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/g;

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(ATTR)) {
    out[m[1].toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "");
  }
  return out;
}

function absolute(href: string, base: string | undefined): string {
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}

const CLOSERS = new Map<string, RegExp>();

/** Index just past `</name` … `>` at or after `from`, or the end of `html`. */
function skipElement(html: string, from: number, name: string): number {
  let close = CLOSERS.get(name);
  if (!close) CLOSERS.set(name, close = new RegExp(`</${name}\\s*>`, "ig"));
  close.lastIndex = from;
  const m = close.exec(html);
  return m ? m.index + m[0].length : html.length;
}

/** The decoded `<title>` of a page, or "". */
export function pageTitle(html: string): string {
  const m = /<title[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  return m ? decodeEntities(m[1]).replace(/\s+/g, " ").trim() : "";
}

/**
 * Converts `html` to Markdown; relative links resolve against `baseURL`
 * (or the page's own `<base href>`).
 */
export function htmlToMarkdown(html: string, baseURL?: string): string {
  const baseTag = /<base\s[^>]*href\s*=\s*["']?([^"'\s>]+)/i.exec(html);
  const base = baseTag ? absolute(decodeEntities(baseTag[1]), baseURL) : baseURL;
  const out: string[] = [];
  const pres: string[] = [];
  const links: OpenLink[] = [];
  const lists: ListFrame[] = [];
  let preDepth = 0;
  let preStart = -1;
  let i = 0;

  const block = () => out.push("\n\n");
  const emitText = (raw: string) => {
    if (preDepth > 0) {
      out.push(decodeEntities(raw));
      return;
    }
    const text = decodeEntities(raw.replace(/[\s]+/g, " ")).replace(/\u00a0/g, " ");
    if (text !== "") out.push(text);
  };

  while (i < html.length) {
    const lt = html.indexOf("<", i);
    if (lt === -1) {
      emitText(html.slice(i));
      break;
    }
    if (lt > i) emitText(html.slice(i, lt));
    i = lt;
    if (html.startsWith("<!--", i)) {
      const end = html.indexOf("-->", i + 4);
      i = end === -1 ? html.length : end + 3;
      continue;
    }
    if (html.startsWith("<!", i) || html.startsWith("<?", i)) {
      const end = html.indexOf(">", i);
      i = end === -1 ? html.length : end + 1;
      continue;
    }
    const tag = readTag(html, i);
    if (!tag) {
      emitText("<");
      i++;
      continue;
    }
    i = tag.end;
    const { closing, name } = tag;
    if (!closing && DROPPED.has(name)) {
      if (!tag.selfClosing) i = skipElement(html, i, name);
      continue;
    }
    if (name === "title") {
      if (!closing) i = skipElement(html, i, "title");
      continue;
    }
    const attrs = closing ? {} : attributes(tag.attrs);
    if (/^h[1-6]$/.test(name)) {
      block();
      if (!closing) out.push("#".repeat(Number(name[1])) + " ");
      continue;
    }
    if (BLOCKS.has(name)) {
      block();
      continue;
    }
    switch (name) {
      case "br":
        out.push(preDepth > 0 ? "\n" : "\n" + INDENT.repeat(lists.length * 2));
        break;
      case "hr":
        out.push("\n\n---\n\n");
        break;
      case "tr":
        if (!closing) out.push("\n");
        break;
      case "td":
      case "th":
        if (!closing) out.push(" | ");
        break;
      case "dt":
      case "dd":
        if (!closing) out.push("\n");
        break;
      case "ul":
      case "ol":
        if (closing) {
          lists.pop();
          if (lists.length === 0) out.push("\n\n");
        } else {
          if (lists.length === 0) out.push("\n\n");
          const start = Number.parseInt(attrs.start ?? "1", 10);
          lists.push({ ordered: name === "ol", next: Number.isFinite(start) ? start : 1 });
        }
        break;
      case "li":
        if (!closing) {
          const frame = lists.at(-1);
          const marker = frame?.ordered ? `${frame.next++}. ` : "- ";
          out.push("\n" + INDENT.repeat(Math.max(0, lists.length - 1) * 2) + marker);
        }
        break;
      case "pre":
        if (closing) {
          if (preDepth > 0 && --preDepth === 0) {
            const body = out.splice(preStart).join("").replace(/^\n/, "").replace(/\s+$/, "");
            pres.push(body);
            out.push(`\n\n${PRE_MARK}${pres.length - 1}${PRE_MARK}\n\n`);
          }
        } else if (preDepth++ === 0) preStart = out.length;
        break;
      case "code":
      case "kbd":
      case "samp":
        if (preDepth === 0) out.push("`");
        break;
      case "strong":
      case "b":
        out.push("**");
        break;
      case "em":
      case "i":
        out.push("_");
        break;
      case "img":
        if (attrs.alt && attrs.alt.trim() !== "") out.push(`[image: ${attrs.alt.trim()}]`);
        break;
      case "a":
        if (closing) {
          const link = links.pop();
          if (link) {
            const text = out.splice(link.start).join("").replace(/\s+/g, " ").trim();
            if (text !== "" && !link.href.startsWith("javascript:")) {
              out.push(link.href ? `[${text}](${link.href})` : text);
            } else out.push(text);
          }
        } else {
          const raw = (attrs.href ?? "").trim();
          const href = raw === "" || raw.startsWith("#") ? "" : absolute(raw, base);
          links.push({ href, start: out.length });
        }
        break;
    }
  }

  const title = pageTitle(html);
  let text = out.join("")
    .replace(/[ \t]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/\*\*\s*\*\*/g, "")
    .trim()
    .replaceAll(INDENT, " ");
  text = text.replace(
    new RegExp(`${PRE_MARK}(\\d+)${PRE_MARK}`, "g"),
    (_, n: string) => "```\n" + pres[Number(n)] + "\n```",
  );
  if (title && !text.startsWith("# ")) text = `# ${title}\n\n${text}`;
  return text;
}
