//! Round eleven (sweep 10, F3): what real code names that is no secret:
//! identifiers, option names, `file://` references, role and resource
//! paths, timestamps, colour names, and documentation's `EXAMPLE` values.
//! A value that is its own name spelled another way is a field's name.

use super::found;

#[test]
fn round_eleven_false_alarms_are_not_flagged() {
    let lines = [
        // IPython's prompt colours.
        "    Token.Prompt: '#ansibrightblue',",
        "    Token.PromptNum: '#ansibrightgreen bold',",
        "    Token.OutPrompt: '#ansired',",
        // An option followed by an option (Debconf's dialog frontend).
        "        $_[0]='--password --inputbox';",
        // A file reference (awscli's examples).
        "    aws acm export-certificate --certificate-arn arn --passphrase file://path-to-passphrase-file",
        "    aws acm export-certificate --passphrase fileb://passphrase.txt",
        // A flag and its help text.
        "  --prompt-for-password  Prompt for the password",
        // A constant naming an API field, a resource path, a role.
        "    ('OAUTH2_CLIENT_SECRET', 'oauth2ClientSecret'),",
        "SECRETS_ANNOTATION = 'run.googleapis.com/secrets'",
        "ROLE_IAM_SERVICE_ACCOUNT_TOKEN_CREATOR = 'roles/iam.serviceAccountTokenCreator'",
        // Timestamps.
        "    PasswordLastUsed = 2014-10-10T15:49:17Z",
        "        \"PasswordLastUsed\": \"2014-10-10T15:49:17Z\",",
        "password_changed_at: 2021-03-04T05:06:07+00:00",
        // A paginator's names.
        "    output_token = NextToken",
        // AWS documentation's example values, marked `EXAMPLE`.
        "            \"SecretCode\": \"QWERTYUIOP123456EXAMPLE\"",
        "    \"SecurityToken\": \"je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY\"",
        "    \"ClientToken\": \"0cbc5ae7-4921-4204-bea9-EXAMPLE11111\",",
        // Placeholders in capitals.
        "//registry.npmjs.org/:_authToken=MYTOKEN",
    ];
    let mut wrong = Vec::new();
    for line in &lines {
        let got = found(line);
        if !got.is_empty() {
            wrong.push(format!("{line:?}: {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The same names with values that are secrets are still found.
#[test]
fn round_eleven_false_alarm_fixes_keep_the_secrets() {
    let value = "Xk9vQ2mLr7TzWq4N";
    for text in [
        format!("    Token.Prompt: '{value}',"),
        format!("  mysql --password {value} --batch"),
        format!("    ('OAUTH2_CLIENT_SECRET', '{value}'),"),
        format!("SECRETS_ANNOTATION = '{value}'"),
        format!("    PasswordLastUsed = {value}"),
    ] {
        assert_eq!(found(&text).len(), 1, "{text:?}: {:?}", found(&text));
    }
}
