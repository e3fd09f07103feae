import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { htmlToMarkdown, pageTitle } from "./html-to-markdown.ts";
import { decodeEntities } from "./html-entities.ts";

describe("htmlToMarkdown", () => {
  const rows: { name: string; html: string; md: string }[] = [
    {
      name: "headings and paragraphs",
      html: "<h2>T</h2><p>a  \n b</p><p>c</p>",
      md: "## T\n\na b\n\nc",
    },
    {
      name: "links resolve against the page",
      html: '<p><a href="/x?a=1&amp;b=2">go</a> <a href="#top">top</a></p>',
      md: "[go](https://s.test/x?a=1&b=2) top",
    },
    {
      name: "a <base href> wins",
      html: '<base href="https://b.test/d/"><a href="y">y</a>',
      md: "[y](https://b.test/d/y)",
    },
    {
      name: "javascript: links keep only their text",
      html: '<a href="javascript:x()">run</a>',
      md: "run",
    },
    { name: "unordered list", html: "<ul><li>a</li><li>b</li></ul>", md: "- a\n- b" },
    {
      name: "ordered list with start",
      html: '<ol start="3"><li>a</li><li>b</li></ol>',
      md: "3. a\n4. b",
    },
    { name: "nested list", html: "<ul><li>a<ul><li>b</li></ul></li></ul>", md: "- a\n  - b" },
    {
      name: "pre keeps its whitespace",
      html: "<pre>  a\n    b &lt;c&gt;</pre>",
      md: "```\n  a\n    b <c>\n```",
    },
    {
      name: "inline code and emphasis",
      html: "<p><code>x</code> <b>bold</b> <em>it</em></p>",
      md: "`x` **bold** _it_",
    },
    {
      name: "script, style, template, svg and comments vanish",
      html:
        "<p>a</p><script>s()</script><style>.x{}</style><template>t</template><svg><text>v</text></svg><!-- c --><p>b</p>",
      md: "a\n\nb",
    },
    {
      name: "a script containing tags",
      html: '<script>document.write("<p>x</p>")</script>ok',
      md: "ok",
    },
    {
      name: "images by their alt text",
      html: '<img src="a.png" alt="A cat"><img src="b.png">',
      md: "[image: A cat]",
    },
    {
      name: "table rows",
      html: "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>",
      md: "| a | b\n| 1 | 2",
    },
    { name: "br and hr", html: "a<br>b<hr>c", md: "a\nb\n\n---\n\nc" },
    { name: "unclosed tags and stray <", html: "<p>a < b <div>c", md: "a < b\n\nc" },
    {
      name: "title first when no heading opens the page",
      html: "<title>Hi &amp; bye</title><p>x</p>",
      md: "# Hi & bye\n\nx",
    },
    { name: "nbsp becomes a space", html: "<p>a&nbsp;b</p>", md: "a b" },
  ];
  for (const r of rows) {
    test(r.name, () => assert.equal(htmlToMarkdown(r.html, "https://s.test/p"), r.md));
  }
  test("a huge flat page converts in one pass", () => {
    const html = "<p>word</p>".repeat(50_000);
    assert.equal(htmlToMarkdown(html).length, 50_000 * 6 - 2);
  });
  test("pageTitle", () => assert.equal(pageTitle("<title>\n A\n B </title>"), "A B"));
});

describe("decodeEntities", () => {
  const rows: [string, string][] = [
    ["a &amp; b", "a & b"],
    ["&lt;&gt;&quot;&apos;", "<>\"'"],
    ["&#233;&#xE9;&#X263a;", "éé☺"],
    ["&copy; &hellip; &euro;", "© … €"],
    ["&unknown; &", "&unknown; &"],
    ["&#0; &#x110000;", "\ufffd \ufffd"],
    ["&amp without semicolon", "& without semicolon"],
    ["&hellip without semicolon", "&hellip without semicolon"],
  ];
  for (const [input, out] of rows) {
    test(JSON.stringify(input), () => assert.equal(decodeEntities(input), out));
  }
});
