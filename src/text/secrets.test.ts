import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  hasUrlCredentials,
  hideSecretEntries,
  hideSecretShapes,
  isSecretName,
  isSecretValue,
  isSecretVariable,
  mayHoldSecretShape,
  secretForms,
  secretsOf,
  SHORTEST_SHAPE,
  urlSecrets,
} from "./secrets.ts";

describe("secret names", () => {
  const secret = [
    "GITHUB_TOKEN",
    "AWS_SECRET_ACCESS_KEY",
    "ANTHROPIC_API_KEY",
    "DB_CREDENTIAL",
    "MY_API_TOKEN",
    "PGPASSWORD",
    "LDAP_PASSWD",
    "GPG_PASSPHRASE",
    "MYSQL_PWD",
    "SMTP_PASS",
    "PASS",
    "NPM_AUTH",
    "npm_config__authToken",
    "apiKey",
    "Authorization",
    "Proxy-Authorization",
    "Cookie",
    "Set-Cookie",
    "X-Api-Key",
    "X-Auth-Token",
    "client.secret",
  ];
  for (const name of secret) {
    test(`${name} is a secret's name`, () => assert.ok(isSecretName(name)));
  }
  const plain = [
    "PATH",
    "HOME",
    "PWD",
    "OLDPWD",
    "GIT_AUTHOR_NAME",
    "AUTHOR",
    "GIT_ASKPASS",
    "SSH_AUTH_SOCK",
    "PASS_THROUGH",
    "GIT_CONFIG_KEY_0",
    "PASSTHROUGH",
    "LANG",
    "Accept",
    "Content-Type",
  ];
  for (const name of plain) test(`${name} is not`, () => assert.equal(isSecretName(name), false));
});

describe("secret values", () => {
  const shapes: Record<string, string> = {
    anthropic: "sk-ant-api03-" + "Ab1_".repeat(10),
    openai: "sk-proj-" + "Xy9".repeat(10),
    "openai (old)": "sk-" + "a1B2c3D4e5".repeat(4) + "ab",
    google: "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6q",
    github: "ghp_" + "A1b2C3d4E5".repeat(4),
    "github fine-grained": "github_pat_" + "11ABCDEFG0123456789_abcdefXYZ",
    gitlab: "glpat-" + "aB3dE5gH7jK9mN1pQ3sT",
    slack: "xoxb-1234567890-abcdefghij",
    npm: "npm_" + "a1B2c3D4e5F6".repeat(3),
    huggingface: "hf_" + "AbCdEfGhIj".repeat(3) + "kl",
    aws: "AKIAIOSFODNN7EXAMPLE",
    "aws session": "ASIAIOSFODNN7EXAMPLE",
    jwt:
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    bearer: "Bearer abcdefghijklmnop1234",
    basic: "Basic dXNlcjpwYXNzd29yZA==",
    "url password": "postgres://app:pw0rd@db.internal:5432/app",
    "url parameter": "https://h/v1?x=1&api_key=zz-query-key",
    "pem private key":
      "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----",
  };
  for (const [what, value] of Object.entries(shapes)) {
    test(`${what}: a secret by its value, hidden in any text`, () => {
      assert.ok(isSecretValue(value));
      assert.ok(isSecretVariable("SOMETHING", value));
      const hidden = hideSecretShapes(`before ${value} after`);
      assert.match(hidden, /^before .*\[redacted\].* after$/);
      const core = what.startsWith("url") ? /(pw0rd|zz-query-key)/.exec(value)![0] : value
        .replace(/^(Bearer|Basic) /, "").split("\n")[1] ?? value.replace(/^(Bearer|Basic) /, "");
      assert.ok(!hidden.includes(core), hidden);
    });
  }
  const plain = [
    "/usr/bin:/bin",
    "ssh://git@github.com/o/r.git",
    "https://example.com/docs?page=2",
    "sk-learn",
    "task-runner-0123",
    "the Bearer of bad news",
    "AKIA",
    "eyJ",
    "C.UTF-8",
  ];
  for (const value of plain) {
    test(`'${value}' is not a secret's value and stays`, () => {
      assert.equal(isSecretValue(value), false);
      assert.equal(hideSecretShapes(value), value);
    });
  }

  test("a Bearer credential keeps its scheme; a URL keeps all but its password", () => {
    assert.equal(
      hideSecretShapes("Authorization: Bearer abcdefghijklmnop1234"),
      "Authorization: Bearer [redacted]",
    );
    assert.equal(
      hideSecretShapes("git clone https://x-access-token:tok-0123456@github.com/o/r"),
      "git clone https://[redacted]@github.com/o/r",
    );
    assert.equal(
      hideSecretShapes("pull ssh://git@github.com/o/r"),
      "pull ssh://git@github.com/o/r",
    );
  });

  test("an unfinished PEM private key is hidden to the end of the text", () => {
    assert.equal(hideSecretShapes("k: -----BEGIN RSA PRIVATE KEY-----\nMIIE"), "k: [redacted]");
  });
});

describe("the one look that says no shape is there", () => {
  // Every kind of shape, alone, in text, twice, cut short, and near misses:
  // the look may say yes to text that stays, never no to text that changes.
  const pieces = [
    "sk-ant-api03-" + "Ab1_".repeat(10),
    "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6q",
    "ghp_" + "A1b2C3d4E5".repeat(4),
    "github_pat_" + "11ABCDEFG0123456789_abcdefXYZ",
    "glpat-" + "aB3dE5gH7jK9mN1pQ3sT",
    "xoxb-1234567890-abcdefghij",
    "npm_" + "a1B2c3D4e5F6".repeat(3),
    "hf_" + "AbCdEfGhIj".repeat(3) + "kl",
    "AKIAIOSFODNN7EXAMPLE",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "Bearer abcdefghijklmnop1234",
    "bearer abcdefghijklmnop1234",
    "Basic dXNlcjpwYXNzd29yZA==",
    "postgres://app:pw0rd@db.internal:5432/app",
    "HTTPS://U:P@h",
    "https://h/v1?x=1&api_key=zz-query-key",
    "https://h/v1?TOKEN=abc",
    "https://h/v1?key=[redacted]",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIE",
    "ssh://git@github.com/o/r.git",
    "https://example.com/docs?page=2",
    "the Bearer of bad news",
    "sk-learn",
    "a=b",
    "",
  ];
  const texts = pieces.flatMap((p) => [
    p,
    `x ${p} y`,
    `${p}\n${p}`,
    p.slice(0, Math.max(0, p.length - 3)),
    JSON.stringify({ k: p }),
  ]);
  for (const text of texts) {
    test(`${JSON.stringify(text.slice(0, 40))}`, () => {
      if (hideSecretShapes(text) !== text) assert.ok(mayHoldSecretShape(text), text);
    });
  }
  test("plain text gets a no", () => {
    for (const text of ["/usr/bin:/bin", "C.UTF-8", "task-runner-0123", '{"type":"usage"}']) {
      assert.equal(mayHoldSecretShape(text), false, text);
    }
  });
});

describe("URL credentials", () => {
  test("a URL carries credentials with a password or a key-like parameter, not a bare user", () => {
    assert.equal(hasUrlCredentials("postgres://app:pw@db.internal:5432/app"), true);
    assert.equal(hasUrlCredentials("redis://:s3cret@cache:6379"), true);
    assert.equal(hasUrlCredentials("https://h/v1?x=1&access_token=abc"), true);
    assert.equal(hasUrlCredentials("ssh://git@github.com/o/r.git"), false);
    assert.equal(hasUrlCredentials("http://127.0.0.1:8080/v1"), false);
    assert.equal(hasUrlCredentials("/usr/bin:/bin"), false);
    assert.equal(hasUrlCredentials("key=value"), false);
  });

  test("their values become secrets, encoded and decoded", () => {
    const url = "https://me:p%40ss-word@host/v1?x=1&api_key=zz-query-key&token=tok12345";
    assert.deepEqual(urlSecrets(url), [
      "me:p%40ss-word",
      "p%40ss-word",
      "p@ss-word",
      "zz-query-key",
      "tok12345",
    ]);
    assert.deepEqual(urlSecrets("http://127.0.0.1:8080/v1"), []);
  });
});

describe("the values a run hides", () => {
  test("a value is hidden as set and as sent (trimmed), longest first; short ones are not", () => {
    assert.deepEqual(secretForms([" sk-abcdefgh123\n", undefined, "short"]), [
      " sk-abcdefgh123\n",
      "sk-abcdefgh123",
    ]);
  });

  test("secret variables by name or value, named keys whatever their names, URL credentials", () => {
    const out = secretsOf(
      {
        DB_CREDENTIAL: "db-cred-value-1",
        MY_API_TOKEN: "my-api-token-value",
        SERVICE_ID: "ghp_" + "A1b2C3d4E5".repeat(4),
        CORP_LLM: "corp-llm-value-1",
        DATABASE_URL: "postgres://app:pw0rd-long@db/app",
        HOME: "/home/someone",
        EDITOR: "vim",
        GH_TOKEN: "short",
      },
      ["CORP_LLM"],
      ["http://me:base-url-pass@h/v1"],
    );
    for (
      const v of [
        "db-cred-value-1",
        "my-api-token-value",
        "ghp_" + "A1b2C3d4E5".repeat(4),
        "corp-llm-value-1",
        "postgres://app:pw0rd-long@db/app",
        "pw0rd-long",
        "base-url-pass",
      ]
    ) assert.ok(out.includes(v), v);
    for (const v of ["/home/someone", "vim", "short"]) assert.ok(!out.includes(v), v);
    assert.deepEqual(out, [...out].sort((a, b) => b.length - a.length));
  });

  test("an env or headers map loses its secret-named values, not its references", () => {
    assert.deepEqual(
      hideSecretEntries({
        Authorization: "Bearer x",
        "X-Api-Key": "${MY_KEY}",
        Accept: "*/*",
        API_TOKEN: "literal",
        N: 1,
      }),
      {
        Authorization: "[redacted]",
        "X-Api-Key": "${MY_KEY}",
        Accept: "*/*",
        API_TOKEN: "[redacted]",
        N: 1,
      },
    );
  });
});

describe("the shortest shapes", () => {
  // The shortest text each shape matches: all at least SHORTEST_SHAPE long,
  // and hidden (shorter text skips the shape patterns; a new shape must keep this).
  const shortest = {
    anthropic: "sk-" + "a".repeat(20),
    google: "AIza" + "b".repeat(35),
    github: "ghp_" + "c".repeat(30),
    githubPat: "github_pat_" + "d".repeat(22),
    gitlab: "glpat-" + "e".repeat(20),
    slack: "xoxb-" + "f".repeat(10),
    npm: "npm_" + "g".repeat(36),
    huggingFace: "hf_" + "h".repeat(30),
    aws: "AKIA" + "I".repeat(16),
    jwt: "eyJ" + "j".repeat(8) + ".eyJ" + "k".repeat(8) + ".",
  };
  for (const [name, value] of Object.entries(shortest)) {
    test(`${name}: ${value.length} characters, hidden`, () => {
      assert.ok(value.length >= SHORTEST_SHAPE);
      assert.equal(hideSecretShapes(value), "[redacted]");
      assert.equal(hideSecretShapes(value.slice(0, -1)).includes(value.slice(0, -1)), true);
    });
  }
  test("a credential scheme and a private key are longer still", () => {
    assert.equal(hideSecretShapes("Basic " + "m".repeat(16)), "Basic [redacted]");
    assert.ok(("Basic " + "m".repeat(16)).length >= SHORTEST_SHAPE);
    assert.equal(hideSecretShapes("-----BEGIN PRIVATE KEY-----"), "[redacted]");
  });
  test("short text: only URL credentials can be in it, and they are still hidden", () => {
    assert.equal(hideSecretShapes("a://u:p@h"), "a://[redacted]@h");
    assert.equal(hideSecretShapes("?key=abc"), "?key=[redacted]");
    assert.equal(hideSecretShapes("type"), "type");
  });
});
