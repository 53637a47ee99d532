//! Round eleven (sweep 10, F2): shapes that passed. Provider tokens with
//! a prefix of their own (gitleaks' shapes), a long token under a secret
//! name, passwords on command lines and in database calls, connection
//! strings, private keys in hex, a registry's identity token. The values
//! are made here (no file holds a whole token).

use super::found;

/// `n` characters of `alphabet`, pseudo-random, the same for a seed.
pub(super) fn random(alphabet: &str, seed: u64, n: usize) -> String {
    let chars: Vec<char> = alphabet.chars().collect();
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            chars[(x >> 24) as usize % chars.len()]
        })
        .collect()
}

const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX: &str = "0123456789abcdef";

pub(super) fn alnum(seed: u64, n: usize) -> String {
    random(ALNUM, seed, n)
}

fn hex(seed: u64, n: usize) -> String {
    random(HEX, seed, n)
}

/// Hex of `text`'s bytes.
fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Each text holds one secret, on the line that holds `marker` (else its
/// last line), found by `rule`.
pub(super) fn check(cases: &[(String, &str, &str)]) {
    let mut wrong = Vec::new();
    for (text, marker, rule) in cases {
        let got = found(text);
        let line = text
            .lines()
            .position(|l| l.contains(marker))
            .map_or(text.lines().count(), |i| i + 1);
        if got.len() != 1 || got[0].0 != line || got[0].1 != *rule {
            wrong.push(format!("{text:?} (want {rule} on line {line}): {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn round_eleven_provider_tokens_are_found() {
    let cases = [
        (
            format!("export API_TOKEN=pul-{}\n", hex(1, 40)),
            "pul-",
            "pulumi-token",
        ),
        (
            format!("export SONAR_TOKEN=squ_{}\n", hex(2, 40)),
            "squ_",
            "sonarqube-token",
        ),
        (
            format!("GEM_HOST_API_KEY=rubygems_{}\n", hex(3, 48)),
            "rubygems_",
            "rubygems-key",
        ),
        (
            format!("---\n:rubygems_api_key: rubygems_{}\n", hex(4, 48)),
            "rubygems_",
            "rubygems-key",
        ),
        (
            format!("SENTRY_AUTH_TOKEN=sntryu_{}\n", hex(5, 64)),
            "sntryu_",
            "sentry-token",
        ),
        (
            format!(
                "auth = \"sntrys_eyJpYXQiOjE3{}_{}\"\n",
                alnum(6, 80),
                alnum(7, 43)
            ),
            "sntrys_",
            "sentry-token",
        ),
        (
            format!("ACCESS_KEY_ID = \"LTAI5t{}\"\n", alnum(8, 18)),
            "LTAI",
            "alibaba-access-key",
        ),
        (
            format!("sq = 'sq0atp-{}'\n", alnum(9, 22)),
            "sq0atp-",
            "square-token",
        ),
        (
            format!("sq = 'sq0csp-{}'\n", alnum(10, 43)),
            "sq0csp-",
            "square-token",
        ),
        (
            format!("FB=\"EAACEdEose0cBA{}\"\n", alnum(11, 160)),
            "EAAC",
            "facebook-token",
        ),
        (
            format!("dbx = \"sl.{}\"\n", alnum(12, 135)),
            "sl.",
            "dropbox-token",
        ),
        (
            format!(
                "notion = \"ntn_{}{}\"\n",
                random("0123456789", 13, 11),
                alnum(14, 35)
            ),
            "ntn_",
            "notion-token",
        ),
        (
            format!("NOTION = \"secret_{}\"\n", alnum(15, 43)),
            "secret_",
            "notion-token",
        ),
        (
            format!("GRAFANA=glsa_{}_{}\n", alnum(16, 32), hex(17, 8)),
            "glsa_",
            "grafana-token",
        ),
        (
            format!("LINEAR=lin_api_{}\n", alnum(18, 40)),
            "lin_api_",
            "linear-key",
        ),
        (
            format!("key: PMAK-{}-{}\n", hex(19, 24), hex(20, 34)),
            "PMAK-",
            "postman-key",
        ),
        (
            format!("echo dckr_pat_{} | x\n", alnum(21, 27)),
            "dckr_pat_",
            "docker-hub-token",
        ),
        (
            format!("client = Groq(api_key=\"gsk_{}\")\n", alnum(22, 52)),
            "gsk_",
            "groq-key",
        ),
        (
            format!(
                "NEW_RELIC=NRAK-{}\n",
                random("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 23, 27)
            ),
            "NRAK-",
            "new-relic-key",
        ),
        (
            format!(
                "tailscale up --authkey tskey-auth-k{}CNTRL-{}\n",
                alnum(24, 6),
                alnum(25, 30)
            ),
            "tskey-",
            "tailscale-key",
        ),
        (
            format!("PS=pscale_pw_{}\n", alnum(26, 43)),
            "pscale_pw_",
            "planetscale-token",
        ),
        (
            format!("FIGMA=figd_{}\n", alnum(27, 40)),
            "figd_",
            "figma-token",
        ),
        (
            format!(
                "url = \"https://discord.com/api/webhooks/1234567890123456789/{}\"\n",
                alnum(28, 68)
            ),
            "discord",
            "discord-webhook",
        ),
        (
            format!(
                "hook: https://contoso.webhook.office.com/webhookb2/{}@{}/IncomingWebhook/{}/{}\n",
                uuid(29),
                uuid(30),
                hex(31, 32),
                uuid(32)
            ),
            "webhookb2",
            "teams-webhook",
        ),
    ];
    check(&cases);
}

/// A UUID of pseudo-random hex.
fn uuid(seed: u64) -> String {
    let h = hex(seed, 32);
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

#[test]
fn round_eleven_provider_near_misses_are_not_flagged() {
    let lines = [
        // Prefixes as words, identifiers, too short or of the wrong alphabet.
        "pul-request".to_string(),
        format!("squ_{}", "z".repeat(40)),
        "LTAIMPLEMENTATIONDETAILS = 1".to_string(),
        format!("ids = LTAI{}", "ABCDEFGHJKLMNPQRST"),
        "resp = requests.get('https://graph.facebook.com/me', params={'fields': 'EAAB'})"
            .to_string(),
        format!("blob = \"{}+EAAC{}/xyz\"", alnum(40, 20), alnum(41, 120)),
        "ctx = ssl.create_default_context()".to_string(),
        format!(
            "secret_{} = 1",
            "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopq"
        ),
        "def secret_key_for_the_session_that_we_do_not_store_anywhere(): pass".to_string(),
        "glsa_prefix = 'glsa_'".to_string(),
        "x = 'tskey-auth-'".to_string(),
        "https://discord.com/api/webhooks/{id}/{token}".to_string(),
        "dckr_pat_".to_string(),
    ];
    for line in &lines {
        assert!(found(line).is_empty(), "{line:?}: {:?}", found(line));
    }
}

#[test]
fn round_eleven_commands_calls_and_connection_strings_are_found() {
    let value = "Xk9vQ2mLr7TzWq4N";
    let session = format!("FwoGZXIvYXdzE{}", alnum(50, 300));
    let cases = [
        (
            format!("AWS_SESSION_TOKEN=\"{session}\"\n"),
            "AWS",
            "secret-assignment",
        ),
        (
            format!("aws_session_token = {session}\n"),
            "aws",
            "secret-config-value",
        ),
        (
            format!("API_TOKEN={}\n", alnum(51, 256)),
            "API",
            "secret-config-value",
        ),
        (
            format!("password = \"{}\"\n", alnum(52, 256)),
            "pass",
            "secret-assignment",
        ),
        (
            format!("kubectl create secret generic db --from-literal=password={value}\n"),
            "kubectl",
            "cli-secret-literal",
        ),
        (
            format!("helm install db bitnami/postgresql --set auth.password={value}\n"),
            "helm",
            "cli-secret-literal",
        ),
        (
            format!("az login --service-principal -u http://app -p {value} --tenant t\n"),
            "az",
            "cli-secret-literal",
        ),
        (
            format!("gh secret set API_TOKEN --body \"{value}\"\n"),
            "gh",
            "cli-secret-literal",
        ),
        (
            format!("echo \"{value}\" | docker login -u bob --password-stdin\n"),
            "echo",
            "cli-secret-literal",
        ),
        (
            format!("Connection c = DriverManager.getConnection(url, \"app\", \"{value}\");\n"),
            "getConnection",
            "db-call-password",
        ),
        (
            format!("$db = new PDO($dsn, \"root\", \"{value}\");\n"),
            "PDO",
            "db-call-password",
        ),
        (
            format!("$c = mysqli_connect(\"localhost\",\"root\",\"{value}\",\"app\");\n"),
            "mysqli",
            "db-call-password",
        ),
        (
            format!("l.simple_bind_s(\"cn=admin,dc=example,dc=org\", \"{value}\")\n"),
            "simple_bind",
            "db-call-password",
        ),
        (
            format!("url = \"jdbc:mysql://db:3306/app?user=root&password={value}\"\n"),
            "jdbc",
            "url-query-password",
        ),
        (
            format!(
                "dsn = \"host=db port=5432 dbname=app user=app password={value} sslmode=require\"\n"
            ),
            "dsn",
            "libpq-password",
        ),
        (
            format!("MAIL_URL=smtp://postmaster@mg.example.com:{value}@smtp.mailgun.org:587\n"),
            "smtp",
            "url-password",
        ),
        (
            format!(
                "KEY = bytes.fromhex(\"{}\")\n",
                hex_of(b"-----BEGIN RSA PRIVATE KEY-----\nMIIE")
            ),
            "KEY",
            "hex-private-key",
        ),
        (
            format!(
                "der = \"308204bd020100300d06092a864886f70d0101010500048204a7{}\"\n",
                hex(53, 200)
            ),
            "der",
            "hex-private-key-der",
        ),
        (
            format!("PRIVATE_KEY = \"0x{}\"\n", hex(54, 64)),
            "PRIVATE_KEY",
            "hex-private-key-assignment",
        ),
        (
            format!(
                "{{\n  \"auths\": {{\n    \"registry.example.com\": {{\n      \"identitytoken\": \"{}\"\n    }}\n  }}\n}}\n",
                alnum(55, 300)
            ),
            "identitytoken",
            "docker-identity-token",
        ),
    ];
    check(&cases);
}

#[test]
fn round_eleven_command_and_call_near_misses_are_not_flagged() {
    let lines = [
        "kubectl create secret generic db --from-literal=password=$DB_PASSWORD",
        "kubectl create secret generic db --from-literal=username=admin",
        "helm install app ./chart --set image.tag=1.2.3",
        "helm install app ./chart --set auth.existingSecret=db-credentials",
        "helm upgrade app ./chart --set tls.secretName=app-tls",
        "az login --service-principal -u $APP_ID -p $PASSWORD --tenant $TENANT",
        "az login --identity",
        "gh secret set API_TOKEN < token.txt",
        "gh secret set API_TOKEN --body \"$TOKEN\"",
        "echo \"$CR_PAT\" | docker login ghcr.io -u USER --password-stdin",
        "cat pw.txt | docker login -u bob --password-stdin",
        "Connection c = DriverManager.getConnection(url, user, password);",
        "Connection c = DriverManager.getConnection(url, \"app\", \"\");",
        "$db = new PDO($dsn, $user, $pass);",
        "$c = mysqli_connect(\"localhost\", \"root\", \"\", \"app\");",
        "$c = mysqli_connect($host, $user, $pw);",
        "l.simple_bind_s(dn, password)",
        "url = \"jdbc:mysql://db:3306/app?user=root&password=${DB_PASSWORD}\"",
        "url = \"https://example.com/reset?password=changed\"",
        "dsn = \"host=db port=5432 dbname=app user=app password=%s\" % pw",
        "dsn = f\"host=db user=app password={password}\"",
        "    def __init__(self, host, port=NNTP_PORT, user=None, password=None,",
        "            self.nntp_class('dummy', user=login, password=password)",
        "            user=baduser, password=badpw, usenetrc=False)",
        "TX_HASH = \"0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060\"",
        "PUBLIC_KEY = \"0x04bfcab8722e1e8a0e0dbb3a6d5cc2a4b1c9b3aefbd6c3a2a5b8e1f0c9d7e6a5b4\"",
        "PRIVATE_KEY = os.environ[\"PRIVATE_KEY\"]",
        "CERT = \"30820122300d06092a864886f70d01010105000382010f003082010a0282010100c3\"",
        "\"identitytoken\": \"\"",
        "smtp://postmaster@mg.example.com@smtp.mailgun.org:587",
    ];
    for line in &lines {
        assert!(found(line).is_empty(), "{line:?}: {:?}", found(line));
    }
}

/// A secret assigned with its type written (recheck of sweep 10): a
/// Python class field or `Final`, TypeScript's `const apiKey: string`,
/// Kotlin's `val apiKey: String`, Go's `var apiKey string`, Rust's
/// `const DB_PASSWORD: &str`. Plain
/// `api_key = "…"` was found; with the type between, none was.
#[test]
fn a_secret_assigned_with_its_type_is_found() {
    let key = alnum(71, 40);
    let cases: Vec<(String, &str, &str)> = [
        format!("class Settings:\n    api_key: str = \"{key}\"\n"),
        format!("password: str = '{key}'\n"),
        format!("API_KEY: Final = \"{key}\"\n"),
        format!("const apiKey: string = \"{key}\";\n"),
        format!("val apiKey: String = \"{key}\"\n"),
        format!("var apiKey string = \"{key}\"\n"),
        format!("token: Optional[str] = \"{key}\"\n"),
        // Rust's borrowed and static strings (recheck of round twelve).
        format!("pub const DB_PASSWORD: &str = \"{key}\";\n"),
        format!("static API_TOKEN: &'static str = \"{key}\";\n"),
    ]
    .into_iter()
    .map(|t| (t, "=", "secret-assignment"))
    .collect();
    check(&cases);
    // A type with no value, or a value that is code.
    for text in [
        "api_key: str\n",
        "password: str = field(default_factory=get_password)\n",
        "token: str = \"<token>\"\n",
        "def f(api_key: str = None): pass\n",
    ] {
        assert!(found(text).is_empty(), "{text}: {:?}", found(text));
    }
}
