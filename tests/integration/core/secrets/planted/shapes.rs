//! Realistic credential shapes, one case each, as they sit in the files
//! that hold them (`.env`, YAML, JSON, `.git/config`, shell, code).
//!
//! The values are fake but shaped like the real ones (prefix, alphabet,
//! length). They are generated at test time from a fixed seed, so no
//! whole token stands in the source for a push-protection scanner to
//! trip on, and each run plants the same text.

/// A fixed-seed generator of random-looking strings (xorshift64*).
pub struct Fake(u64);

pub const UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
pub const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
pub const DIGITS: &str = "0123456789";
pub const HEX: &str = "0123456789abcdef";
pub const BASE64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

impl Fake {
    pub fn new(seed: u64) -> Self {
        Fake(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// `n` characters drawn from `alphabet`.
    pub fn of(&mut self, alphabet: &str, n: usize) -> String {
        let chars: Vec<char> = alphabet.chars().collect();
        (0..n)
            .map(|_| chars[(self.next() % chars.len() as u64) as usize])
            .collect()
    }

    /// Letters and digits.
    pub fn alnum(&mut self, n: usize) -> String {
        self.of(&format!("{UPPER}{LOWER}{DIGITS}"), n)
    }

    pub fn hex(&mut self, n: usize) -> String {
        self.of(HEX, n)
    }

    /// Standard base64 of `bytes` random bytes, padded.
    pub fn base64(&mut self, bytes: usize) -> String {
        let chars = bytes.div_ceil(3) * 4;
        let pad = (3 - bytes % 3) % 3;
        let mut s = self.of(BASE64, chars - pad);
        // The last character before padding carries zero low bits.
        if pad > 0 {
            s.pop();
            s.push(if pad == 1 { 'E' } else { 'A' });
        }
        s + &"=".repeat(pad)
    }

    /// A password a person or a generator picked: mixed case, digits and
    /// a symbol.
    pub fn password(&mut self, n: usize) -> String {
        let mut s = self.alnum(n - 2);
        s.insert(3, '!');
        s.insert(7, '7');
        s
    }

    /// `lines` lines of a PEM body (64 columns), the first starting with
    /// `head` (a DER header's base64, or nothing for a middle slice).
    pub fn pem_body(&mut self, head: &str, lines: usize) -> String {
        self.wrapped(head, lines, 64)
    }

    /// The same at OpenSSH's 70 columns.
    pub fn openssh_body(&mut self, head: &str, lines: usize) -> String {
        self.wrapped(head, lines, 70)
    }

    fn wrapped(&mut self, head: &str, lines: usize, width: usize) -> String {
        let mut body = head.to_string();
        body.push_str(&self.of(BASE64, width * lines - head.len()));
        let mut out = String::new();
        for i in 0..lines {
            out.push_str(&body[i * width..(i + 1) * width]);
            out.push('\n');
        }
        out
    }
}

/// Base64 of `user:password`, as `Authorization: Basic` carries it.
pub fn basic(user: &str, password: &str) -> String {
    const TABLE: &[u8] = BASE64.as_bytes();
    let bytes = format!("{user}:{password}").into_bytes();
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(TABLE[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// One planted shape: a name, the text of the file, and the 1-based line
/// the secret must be reported on.
pub struct Shape {
    pub name: &'static str,
    pub text: String,
    pub line: usize,
}

fn shape(name: &'static str, text: String, line: usize) -> Shape {
    Shape { name, text, line }
}

/// Every planted shape.
pub fn all() -> Vec<Shape> {
    let mut f = Fake::new(0x5EC2_E75E_ED00_0022);
    let mut v = Vec::new();
    // Provider tokens with a fixed prefix.
    v.push(shape(
        "AWS access key id",
        format!(
            "[default]\naws_access_key_id = {}{}\n",
            "AKIA",
            f.of(&format!("{UPPER}{DIGITS}"), 16)
        ),
        2,
    ));
    v.push(shape(
        "AWS secret key (credentials file)",
        format!(
            "[default]\naws_secret_access_key = {}/{}\n",
            f.alnum(20),
            f.alnum(19)
        ),
        2,
    ));
    v.push(shape(
        "GitHub classic PAT",
        format!("export GH_TOKEN={}{}\n", "ghp_", f.alnum(36)),
        1,
    ));
    v.push(shape(
        "GitHub app token",
        format!("token: {}{}\n", "ghs_", f.alnum(36)),
        1,
    ));
    v.push(shape(
        "GitHub fine-grained PAT",
        format!(
            "GITHUB_PAT={}{}_{}\n",
            "github_pat_",
            f.alnum(22),
            f.alnum(59)
        ),
        1,
    ));
    v.push(shape(
        "GitLab PAT",
        format!("gitlab_token: {}{}\n", "glpat-", f.alnum(20)),
        1,
    ));
    v.push(shape(
        "Slack bot token",
        format!(
            "SLACK_BOT={}{}-{}-{}\n",
            "xoxb-",
            f.of(DIGITS, 12),
            f.of(DIGITS, 13),
            f.alnum(24)
        ),
        1,
    ));
    v.push(shape(
        "Slack app-level token",
        format!(
            "SLACK_APP={}1-A{}-{}-{}\n",
            "xapp-",
            f.of(&format!("{UPPER}{DIGITS}"), 10),
            f.of(DIGITS, 13),
            f.hex(64)
        ),
        1,
    ));
    v.push(shape(
        "Slack webhook",
        format!(
            "url = \"https://{}/services/T{}/B{}/{}\"\n",
            "hooks.slack.com",
            f.of(&format!("{UPPER}{DIGITS}"), 8),
            f.of(&format!("{UPPER}{DIGITS}"), 10),
            f.alnum(24)
        ),
        1,
    ));
    v.push(shape(
        "OpenAI project key",
        format!(
            "OPENAI={}{}T3Blbk{}\n",
            "sk-proj-",
            f.alnum(40),
            f.alnum(40)
        ),
        1,
    ));
    v.push(shape(
        "Anthropic key",
        format!(
            "client = Anthropic(api_key=\"{}{}-{}AA\")\n",
            "sk-ant-api03-",
            f.alnum(60),
            f.alnum(30)
        ),
        1,
    ));
    v.push(shape(
        "Stripe live secret key",
        format!("stripe.api_key = \"{}{}\"\n", "sk_live_", f.alnum(99)),
        1,
    ));
    v.push(shape(
        "Stripe restricted key",
        format!("STRIPE={}{}\n", "rk_live_", f.alnum(99)),
        1,
    ));
    v.push(shape(
        "Stripe webhook secret",
        format!("endpoint_secret = '{}{}'\n", "whsec_", f.alnum(32)),
        1,
    ));
    v.push(shape(
        "Stripe webhook secret in .env",
        format!("STRIPE_WEBHOOK={}{}\n", "whsec_", f.alnum(32)),
        1,
    ));
    v.push(shape(
        "Google API key",
        format!(
            "maps: {}{}\n",
            "AIza",
            f.of(&format!("{UPPER}{LOWER}{DIGITS}_-"), 35)
        ),
        1,
    ));
    v.push(shape(
        "Hugging Face token",
        format!("HF={}{}\n", "hf_", f.of(&format!("{UPPER}{LOWER}"), 34)),
        1,
    ));
    v.push(shape(
        "npm token in .npmrc",
        format!(
            "//registry.npmjs.org/:_authToken={}{}\n",
            "npm_",
            f.alnum(36)
        ),
        1,
    ));
    v.push(shape(
        "PyPI token in .pypirc",
        format!(
            "[pypi]\nusername = __token__\npassword = {}{}\n",
            "pypi-AgEIcHlwaS5vcmc",
            f.of(&format!("{UPPER}{LOWER}{DIGITS}_-"), 120)
        ),
        3,
    ));
    v.push(shape(
        "SendGrid key",
        format!("SENDGRID={}{}.{}\n", "SG.", f.alnum(22), f.alnum(43)),
        1,
    ));
    v.push(shape(
        "DigitalOcean PAT",
        format!("DIGITALOCEAN_ACCESS={}{}\n", "dop_v1_", f.hex(64)),
        1,
    ));
    v.push(shape(
        "DigitalOcean OAuth token",
        format!("do: {}{}\n", "doo_v1_", f.hex(64)),
        1,
    ));
    v.push(shape(
        "Shopify access token",
        format!("SHOPIFY={}{}\n", "shpat_", f.hex(32)),
        1,
    ));
    v.push(shape(
        "Shopify shared secret",
        format!("shopify_shared = \"{}{}\"\n", "shpss_", f.hex(32)),
        1,
    ));
    v.push(shape(
        "Shopify custom app token",
        format!("{{\"shop\": \"{}{}\"}}\n", "shpca_", f.hex(32)),
        1,
    ));
    v.push(shape(
        "Vault service token",
        format!(
            "VAULT_TOKEN={}{}\n",
            "hvs.",
            f.of(&format!("{UPPER}{LOWER}{DIGITS}_-"), 91)
        ),
        1,
    ));
    v.push(shape(
        "Vault token in a CLI call",
        format!("vault login {}{}\n", "hvs.", f.alnum(24)),
        1,
    ));
    v.push(shape(
        "Databricks token",
        format!(
            "DATABRICKS_HOST=https://x.cloud.databricks.com\nDATABRICKS={}{}\n",
            "dapi",
            f.hex(32)
        ),
        2,
    ));
    v.push(shape(
        "age secret key",
        format!(
            "# created: 2024-01-01\n# public key: age1{}\n{}{}\n",
            f.of("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58),
            "AGE-SECRET-KEY-1",
            f.of("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)
        ),
        3,
    ));
    v.push(shape(
        "Atlassian API token",
        format!(
            "JIRA={}{}={}\n",
            "ATATT3xFfGF0",
            f.of(&format!("{UPPER}{LOWER}{DIGITS}_-"), 171),
            f.of("0123456789ABCDEF", 8)
        ),
        1,
    ));
    v.push(shape(
        "Twilio API key",
        format!("TWILIO_API={}{}\n", "SK", f.hex(32)),
        1,
    ));
    v.push(shape(
        "Twilio account SID and token",
        format!("client = Client(\"{}{}\", auth)\n", "AC", f.hex(32)),
        1,
    ));
    v.push(shape(
        "Telegram bot token",
        format!(
            "BOT = \"{}:{}{}\"\n",
            f.of(DIGITS, 10),
            "AA",
            f.of(&format!("{UPPER}{LOWER}{DIGITS}_-"), 33)
        ),
        1,
    ));
    v.push(shape(
        "JWT",
        format!(
            "session = \"eyJhbGciOiJIUzI1NiJ9.eyJ{}.{}\"\n",
            f.alnum(60),
            f.alnum(43)
        ),
        1,
    ));
    // Private keys, whole and sliced.
    v.push(shape(
        "RSA private key (PKCS#1)",
        format!(
            "-----BEGIN RSA PRIVATE KEY-----\n{}-----END RSA PRIVATE KEY-----\n",
            f.pem_body("MIIEpAIBAAKCAQEA", 6)
        ),
        1,
    ));
    v.push(shape(
        "private key (PKCS#8)",
        format!(
            "-----BEGIN PRIVATE KEY-----\n{}-----END PRIVATE KEY-----\n",
            f.pem_body("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 6)
        ),
        1,
    ));
    v.push(shape(
        "OpenSSH private key",
        format!(
            "-----BEGIN OPENSSH PRIVATE KEY-----\n{}-----END OPENSSH PRIVATE KEY-----\n",
            f.openssh_body("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", 5)
        ),
        1,
    ));
    v.push(shape(
        "RSA key body without its BEGIN line",
        format!(
            "KEY_BODY = \"\"\"\n{}\"\"\"\n",
            f.pem_body("MIIEowIBAAKCAQEA", 8)
        ),
        2,
    ));
    v.push(shape(
        "PKCS#8 key body without its BEGIN line",
        f.pem_body("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ", 8),
        1,
    ));
    v.push(shape(
        "EC key body without its BEGIN line",
        format!(
            "ec:\n  {}",
            f.pem_body("MHcCAQEEI", 2).replace('\n', "\n  ")
        ),
        2,
    ));
    v.push(shape(
        "OpenSSH key body without its BEGIN line",
        f.openssh_body(
            "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
            4,
        ),
        1,
    ));
    v.push(shape(
        "a slice from the middle of a key body",
        format!("def f():\n    pass\n{}", f.pem_body("", 6)),
        3,
    ));
    v.push(shape("PuTTY private key", format!("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPublic-Lines: 2\n{}\n{}\nPrivate-Lines: 1\n{}\n", f.base64(36), f.base64(15), f.base64(36)), 6));
    v.push(shape(
        "kubeconfig client key",
        format!(
            "users:\n- name: admin\n  user:\n    client-key-data: {}\n",
            f.base64(120)
        ),
        4,
    ));
    // Basic authentication.
    let pw = f.password(16);
    v.push(shape(
        "Authorization: Basic (curl)",
        format!(
            "curl -H \"Authorization: Basic {}\" https://api.example.com\n",
            basic("deploy", &pw)
        ),
        1,
    ));
    v.push(shape("CI extraheader in .git/config", format!("[remote \"origin\"]\n\turl = https://github.com/o/r\n[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic {}\n", basic("x-access-token", &f.alnum(40))), 4));
    v.push(shape(
        "Basic header in a Python dict",
        format!(
            "headers = {{\"Authorization\": \"Basic {}\"}}\n",
            basic("svc", &f.password(20))
        ),
        1,
    ));
    v.push(shape("docker config.json auth", format!("{{\n  \"auths\": {{\n    \"registry.example.com\": {{\n      \"auth\": \"{}\"\n    }}\n  }}\n}}\n", basic("ci", &f.password(18))), 4));
    // Passwords in URLs.
    v.push(shape(
        "redis URL, password only",
        format!("REDIS_URL=redis://:{}@cache.internal:6379/0\n", f.alnum(24)),
        1,
    ));
    v.push(shape(
        "postgres URL",
        format!(
            "DATABASE_URL=postgres://app:{}@db.internal:5432/app\n",
            f.password(18)
        ),
        1,
    ));
    v.push(shape(
        "mongodb+srv URL",
        format!(
            "uri = \"mongodb+srv://admin:{}@cluster0.ab1cd.mongodb.net/?retryWrites=true\"\n",
            f.alnum(20)
        ),
        1,
    ));
    v.push(shape(
        "amqp URL in YAML",
        format!(
            "broker_url: amqp://worker:{}@rabbit:5672//\n",
            f.password(14)
        ),
        1,
    ));
    // Connection strings.
    v.push(shape("Azure storage connection string", format!("AZURE_STORAGE=DefaultEndpointsProtocol=https;AccountName=prodfiles;AccountKey={};EndpointSuffix=core.windows.net\n", f.base64(64)), 1));
    v.push(shape("Azure Service Bus connection string", format!("\"ServiceBus\": \"Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={}\"\n", f.base64(32)), 1));
    v.push(shape("SQL Server connection string", format!("conn = \"Server=tcp:db.example.com,1433;Database=app;User ID=sa;Password={};Encrypt=true\"\n", f.password(16)), 1));
    v.push(shape("Azure SAS URL", format!("blob = \"https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&sig={}%3D\"\n", f.alnum(43)), 1));
    // Names outside the old keyword list.
    v.push(shape(
        "DB_PASS in .env",
        format!("DB_HOST=db\nDB_PASS={}\n", f.password(16)),
        2,
    ));
    v.push(shape(
        "ansible_ssh_pass",
        format!("ansible_ssh_pass: {}\n", f.password(14)),
        1,
    ));
    v.push(shape(
        "JWT signing key",
        format!("JWT_SIGNING_KEY={}\n", f.alnum(48)),
        1,
    ));
    v.push(shape(
        "data encryption key in code",
        format!("DATA_ENCRYPTION_KEY = \"{}\"\n", f.base64(32)),
        1,
    ));
    v.push(shape(
        "Laravel APP_KEY",
        format!("APP_NAME=Shop\nAPP_KEY=base64:{}\n", f.base64(32)),
        2,
    ));
    v.push(shape(
        "master key in YAML",
        format!("master_key: \"{}\"\n", f.hex(32)),
        1,
    ));
    v.push(shape(
        ".netrc password",
        format!(
            "machine api.example.com\n  login deploy\n  password {}\n",
            f.alnum(32)
        ),
        3,
    ));
    // Names in the old keyword list, in each file kind.
    v.push(shape(
        "DB_PASSWORD in .env",
        format!("DB_PASSWORD={}\n", f.password(16)),
        1,
    ));
    v.push(shape(
        "password in Python",
        format!("def connect():\n    password = \"{}\"\n", f.password(14)),
        2,
    ));
    v.push(shape(
        "password in YAML",
        format!("db:\n  password: '{}'\n", f.password(14)),
        2,
    ));
    v.push(shape(
        "client_secret in JSON",
        format!(
            "{{\"client_id\": \"abc\", \"client_secret\": \"{}\"}}\n",
            f.alnum(32)
        ),
        1,
    ));
    v.push(shape(
        "api key in a properties file",
        format!("service.api.key={}\n", f.alnum(32)),
        1,
    ));
    v.push(shape(
        "x-api-key header",
        format!("curl -H 'x-api-key: {}' https://api\n", f.alnum(40)),
        1,
    ));
    v.push(shape(
        "Bearer header",
        format!("Authorization: Bearer {}\n", f.alnum(40)),
        1,
    ));
    v.push(shape(
        "Rails secret_key_base",
        format!("production:\n  secret_key_base: {}\n", f.hex(128)),
        2,
    ));
    v.push(shape(
        "Django SECRET_KEY",
        format!(
            "SECRET_KEY = '{}'\n",
            f.of("abcdefghijklmnopqrstuvwxyz0123456789!@#^&*(-_=+)", 50)
        ),
        1,
    ));
    v.push(shape(
        "export in a shell script",
        format!("export API_TOKEN=\"{}\"\n", f.alnum(32)),
        1,
    ));
    v.push(shape(
        "Terraform variable",
        format!(
            "variable \"db\" {{\n  default = \"x\"\n}}\ndb_password = \"{}\"\n",
            f.password(18)
        ),
        4,
    ));
    // A key body without its armor inside JSON, its lines joined by `\n`
    // escapes (a service-account file with the BEGIN line cut).
    let body = f.pem_body("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 4);
    v.push(shape(
        "key body without its BEGIN line in JSON",
        format!(
            "{{\n  \"type\": \"service_account\",\n  \"private_key\": \"{}\"\n}}\n",
            body.replace('\n', "\\n")
        ),
        3,
    ));
    v
}
