//! Round 23 of the secret shapes (recheck 22's residuals): a heredoc
//! whose body is one quoted literal, a template literal opened on the
//! assignment's line and closed below, a dict's triple-quoted value closed
//! below, a JSON key, its `:` and its value each on a line of their own, a
//! comment between a key and its `:` (JSONC), YAML's explicit key with a
//! comment line before its value, and a YAML flow map wrapped over lines.

use super::quiet;
use super::round_twenty_two::each_found;

#[test]
fn round_twenty_three_values_that_span_lines_are_read_as_assignments() {
    each_found(&[
        (
            "heredoc of a quoted literal",
            "PASSWORD = <<~EOS\n  \"Vb6nQ1xZ8kLm3Wu\"\nEOS\n",
        ),
        (
            "heredoc of a single-quoted literal",
            "<?php\n$password = <<<EOT\n'Vb6nQ1xZ8kLm3Wu'\nEOT;\n",
        ),
        (
            "template literal closed below",
            "const password = `Vb6nQ1xZ8kLm3Wu\n`;\n",
        ),
        (
            "dict triple quote closed below",
            "DB = {\n    \"password\": \"\"\"Vb6nQ1xZ8kLm3Wu\n\"\"\",\n}\n",
        ),
        (
            "json key, colon, value apart",
            "{\n  \"password\"\n  :\n  \"Vb6nQ1xZ8kLm3Wu\"\n}\n",
        ),
        (
            "jsonc comment before the colon",
            "{\n  \"password\" /* the db */ : \"Vb6nQ1xZ8kLm3Wu\"\n}\n",
        ),
        (
            "yaml explicit key, comment between",
            "db:\n  ? password\n  # the db's\n  : Vb6nQ1xZ8kLm3Wu\n",
        ),
        (
            "properties continued",
            "spring.datasource.password=CvFRCHQV\\\n    gGAHn7in\n",
        ),
        (
            "properties in three pieces",
            "db.password=CvFRC\\\n  HQVgG\\\n  AHn7in\n",
        ),
        (
            "shell word continued",
            "export DB_PASSWORD=\\\nCvFRCHQVgGAHn7in\n",
        ),
        (
            "dotenv quoted over lines",
            "DB_PASSWORD=\"\nCvFRCHQVgGAHn7in\n\"\n",
        ),
        (
            "xml element over lines",
            "<db>\n  <password>\n    Vb6nQ1xZ8kLm3Wu\n  </password>\n</db>\n",
        ),
        (
            "yaml flow map over lines",
            "db: {user: app,\n  password: Vb6nQ1xZ8kLm3Wu}\n",
        ),
    ]);
    quiet(&[
        "HELP = <<~EOS\n  \"Enter your password\"\nEOS\n".into(),
        "const password = `${process.env.DB_PASSWORD}\n`;\n".into(),
        "DB = {\n    \"password\": \"\"\"Enter the password\n\"\"\",\n}\n".into(),
        "{\n  \"password\" /* set below */ : \"\"\n}\n".into(),
        "db: {user: app,\n  password: ${DB_PASSWORD}}\n".into(),
        "x = {\"a\": 1}\ny = `\n`;\n".into(),
        "<password>\n  ${DB_PASSWORD}\n</password>\n".into(),
        "<token>\n  tokenValueFromEnv\n</token>\n".into(),
    ]);
}

/// A red team's shapes beyond the named rules (round 23): a Go MySQL DSN,
/// a signing key as a call's argument, passwords on command lines
/// (`chpasswd`, `passwd --stdin`, `openssl passwd`, Mongo's `-p PASS`, an
/// exec list's flag and value), an Ansible host line, credential objects,
/// SQL role passwords, npm and Yarn tokens set from a command line, a key
/// written as escaped bytes, a wallet's key and seed phrase.
#[test]
fn round_twenty_three_shapes_people_leak_beyond_the_named_rules() {
    let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
    each_found::<String>(&[
        (
            "hex of a .env",
            format!(
                "BLOB = bytes.fromhex('{}')\n",
                hex(b"DB_USER=app\nDB_PASS=Vb6nQ1xZ8kLm3Wu\n")
            ),
        ),
        (
            "hex of a token, upper case",
            format!(
                "ENV_HEX={}\n",
                hex(b"GITHUB_TOKEN=ghp_Vb6nQ1xZ8kLm3WuTq8Rz5Yc2Hd7Jf4Kp1Ns9a\n").to_uppercase()
            ),
        ),
    ]);
    each_found(&[
        (
            "go dsn",
            "db, err := sql.Open(\"mysql\", \"root:Vb6nQ1xZ8kLm3Wu@tcp(127.0.0.1:3306)/app?parseTime=true\")\n",
        ),
        (
            "go dsn unix",
            "dsn := \"app:Vb6nQ1xZ8kLm3Wu@unix(/tmp/mysql.sock)/app\"\n",
        ),
        (
            "jwt.sign",
            "const t = jwt.sign({ id: user.id, role: 'a' }, 'Vb6nQ1xZ8kLm3Wu', { expiresIn: '1h' });\n",
        ),
        ("jwt.verify", "jwt.verify(token, 'Vb6nQ1xZ8kLm3Wu');\n"),
        (
            "pyjwt",
            "tok = jwt.encode(payload, 'Vb6nQ1xZ8kLm3Wu', algorithm='HS256')\n",
        ),
        (
            "cookieParser",
            "app.use(cookieParser('Vb6nQ1xZ8kLm3Wu'));\n",
        ),
        (
            "createHmac",
            "const h = crypto.createHmac('sha256', 'Vb6nQ1xZ8kLm3Wu').update(b);\n",
        ),
        (
            "hmac.new",
            "sig = hmac.new(b'Vb6nQ1xZ8kLm3Wu', body, hashlib.sha256)\n",
        ),
        ("chpasswd", "RUN echo 'deploy:Vb6nQ1xZ8kLm3Wu' | chpasswd\n"),
        (
            "passwd --stdin",
            "echo 'Vb6nQ1xZ8kLm3Wu' | passwd --stdin deploy\n",
        ),
        (
            "passwd twice",
            "echo -e \"Vb6nQ1xZ8kLm3Wu\\nVb6nQ1xZ8kLm3Wu\" | passwd deploy\n",
        ),
        (
            "openssl passwd",
            "useradd -m -p \"$(openssl passwd -6 'Vb6nQ1xZ8kLm3Wu')\" deploy\n",
        ),
        (
            "mongodump -p",
            "mongodump -u admin -p Vb6nQ1xZ8kLm3Wu --db app\n",
        ),
        (
            "exec list",
            "command: [\"redis-server\", \"--requirepass\", \"Vb6nQ1xZ8kLm3Wu\"]\n",
        ),
        (
            "ansible host line",
            "[web]\n10.0.0.5 ansible_user=deploy ansible_ssh_pass=Vb6nQ1xZ8kLm3Wu\n",
        ),
        (
            "javamail",
            "return new PasswordAuthentication(\"noreply@acme.com\", \"Vb6nQ1xZ8kLm3Wu\");\n",
        ),
        (
            "httpclient",
            "creds = new UsernamePasswordCredentials(\"admin\", \"Vb6nQ1xZ8kLm3Wu\");\n",
        ),
        (
            "aws basic",
            "new BasicAWSCredentials(accessKey, \"wJalrXUtnFEMIK7MDENGbPxRfiCYzQ9vLm3WuTq8\")\n",
        ),
        (
            "go static",
            "credentials.NewStaticCredentials(os.Getenv(\"ID\"), \"wJalrXUtnFEMIK7MDENGbPxRfiCYzQ9vLm3WuTq8\", \"\")\n",
        ),
        (
            "create role login",
            "CREATE ROLE app LOGIN PASSWORD 'Vb6nQ1xZ8kLm3Wu';\n",
        ),
        (
            "create user encrypted",
            "CREATE USER app ENCRYPTED PASSWORD 'Vb6nQ1xZ8kLm3Wu';\n",
        ),
        (
            "set password",
            "SET PASSWORD FOR 'app'@'localhost' = PASSWORD('Vb6nQ1xZ8kLm3Wu');\n",
        ),
        (
            "npm config set",
            "npm config set //registry.npmjs.org/:_authToken 6f1c2a9e-3b7d-4e8f-9a0b-1c2d3e4f5a6b\n",
        ),
        (
            "yarn config set",
            "yarn config set npmAuthToken npm_Vb6nQ1xZ8kLm3WuTq8Rz5Yc2Hd7Jf4Kp1Ns9\n",
        ),
        ("yarnrc ident", "npmAuthIdent: \"deploy:Vb6nQ1xZ8kLm3Wu\"\n"),
        (
            "flask bytes",
            "app.secret_key = b'\\x57\\x71\\x30\\x9a\\x1f\\xc2\\x44\\x8e\\x0b\\x7d\\x13\\xe5\\x66\\xa1'\n",
        ),
        (
            "ethers wallet",
            "const w = new ethers.Wallet('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318', p);\n",
        ),
        (
            "hardhat accounts",
            "networks: { main: { accounts: ['0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'] } }\n",
        ),
        (
            "basic literal",
            "const AUTH = 'Basic YWRtaW46Q3ZGUkNIUVZnR0FIbjdpbg==';\n",
        ),
        ("php dbpass", "<?php\n$dbpass = 'Vb6nQ1xZ8kLm3Wu';\n"),
        ("python pw", "pw = 'Vb6nQ1xZ8kLm3Wu'\n"),
        (
            "docker login here-string",
            "docker login -u deploy --password-stdin r.example.com <<< 'Vb6nQ1xZ8kLm3Wu'\n",
        ),
        (
            "docker login printf",
            "printf '%s' \"Vb6nQ1xZ8kLm3Wu\" | docker login ghcr.io -u bot --password-stdin\n",
        ),
        ("fish set", "set -gx DB_PASSWORD Vb6nQ1xZ8kLm3Wu\n"),
        (
            "nodemailer gmail",
            "auth: { user: 'me@gmail.com', pass: 'lzmpyisyjkhxyozc' },\n",
        ),
        ("django mail", "EMAIL_HOST_PASSWORD = 'vjzvckjrzkiyfuho'\n"),
        ("grouped", "smtp:\n  password: \"lzmp yisy jkhx yozc\"\n"),
        (
            "docker login heredoc",
            "docker login r.example.com -u deploy --password-stdin <<EOF\nVb6nQ1xZ8kLm3Wu\nEOF\n",
        ),
        (
            "yaml list of passwords",
            "db:\n  passwords:\n    - Vb6nQ1xZ8kLm3Wu\n",
        ),
        (
            "mnemonic",
            "const mnemonic = 'excess behave track soul table wear ocean cash stay nature item turtle';\n",
        ),
    ]);
    quiet(&[
        "dsn := fmt.Sprintf(\"%s:%s@tcp(%s)/%s\", u, p, h, d)\n".into(),
        "dsn := \"root:password@tcp(localhost:3306)/test\"\n".into(),
        "const t = jwt.sign(payload, process.env.JWT_SECRET);\n".into(),
        "jwt.verify(token, 'secret');\n".into(),
        "echo \"$USER:$PASS\" | chpasswd\n".into(),
        "mongodump -u admin -p \"$MONGO_PASSWORD\" --db app\n".into(),
        "parser.add_argument(\"--password\", \"-p\", help=\"the password\")\n".into(),
        "p.add_argument('--token', 'api_token_file')\n".into(),
        "10.0.0.5 ansible_user=deploy ansible_ssh_pass={{ vault_pass }}\n".into(),
        "new PasswordAuthentication(user, password.toCharArray());\n".into(),
        "CREATE ROLE app LOGIN PASSWORD :'pw';\n".into(),
        "npm config set //registry.npmjs.org/:_authToken ${NPM_TOKEN}\n".into(),
        "accounts: ['0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'],\n"
            .into(),
        "mnemonic: 'test test test test test test test test test test test junk',\n".into(),
        "seed = 42\n".into(),
        "EMAIL_HOST_PASSWORD = os.environ['EMAIL_HOST_PASSWORD']\n".into(),
        "auth: { user: 'me@gmail.com', pass: process.env.GMAIL_PASS },\n".into(),
        "password: 'this is not used'\n".into(),
        "docker login --password-stdin <<EOF\n$REGISTRY_PASSWORD\nEOF\n".into(),
        "services:\n  db:\n    secrets:\n      - db_password\nsecrets:\n  - DB_ROOT_PASSWORD\n"
            .into(),
        "imagePullSecrets:\n  - name: regcred\n".into(),
        "echo \"$TOKEN\" | docker login ghcr.io -u bot --password-stdin\n".into(),
        "docker login --password-stdin <<< \"$REGISTRY_PASSWORD\"\n".into(),
        "set -gx DB_PASSWORD (cat ~/.db_password)\nset -l token_file tokens.txt\n".into(),
        "MSG=\"\nEnter the password\n\"\n".into(),
        "const AUTH = 'Basic ' + btoa(user + ':' + pass);\n".into(),
        "const kind = 'Basic YWJjZGVmZ2hpamtsbW5vcA==';\n".into(),
        "<?php\n$dbpass = getenv('DB_PASS');\n$pw = 'password';\n".into(),
        "pw = 'utf-8'\nsmtp_pass = 'SMTP_PASSWORD'\n".into(),
        format!(
            "BLOB = bytes.fromhex('{}')\n",
            hex(b"The quick brown fox jumps over the lazy dog.\n")
        ),
        format!("DIGEST = '{}'\n", "3f2a9b7c".repeat(8)),
        format!(
            "kind: SealedSecret\nspec:\n  encryptedData:\n    password: Ag{}==\n",
            "BvQ3mK9xLp2Wn7Zr4Tc8Yh1Jd6Fs5Gu0Ae".repeat(12)
        ),
    ]);
}
