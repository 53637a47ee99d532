//! Secrets that travel base64-encoded, through the real binary (`build`)
//! and the MCP server (`view`, `build`): a Kubernetes Secret's `tls.key:`
//! or `ssh-privatekey:` holding the base64 of a PEM private key, a
//! `.dockerconfigjson:` holding the base64 of a registry login, the same
//! base64 key as a constant in source code. Base64 that decodes to a
//! private key or to credentials counts as that key; the base64 of a
//! certificate or of a plain manifest does not.
//!
//! No key is committed: each test makes one (`openssl genrsa` when the
//! machine has it, else a key-shaped PEM of pseudo-random bytes).

use std::process::Command;

use serde_json::json;

use crate::common;

use common::mcp_stdio::McpServer;
use common::{Project, base64, noise, stderr, stdout};

/// A PEM block of `label` around `der`, wrapped at 64 columns.
fn pem(label: &str, der: &[u8]) -> String {
    let body = base64(der);
    let mut text = format!("-----BEGIN {label}-----\n");
    for line in body.as_bytes().chunks(64) {
        text.push_str(std::str::from_utf8(line).expect("ascii"));
        text.push('\n');
    }
    text.push_str(&format!("-----END {label}-----\n"));
    text
}

/// An RSA private key in PEM: a real one from `openssl genrsa`, else one
/// built from a PKCS#1 header and pseudo-random bytes.
fn rsa_key() -> String {
    let made = Command::new("openssl")
        .args(["genrsa", "2048"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .filter(|k| k.contains("PRIVATE KEY-----"));
    made.unwrap_or_else(|| {
        let mut der = vec![
            0x30, 0x82, 0x04, 0xa4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01,
        ];
        der.extend(noise(7, 1180));
        pem(&["RSA", "PRIVATE", "KEY"].join(" "), &der)
    })
}

/// A certificate-shaped PEM (the public half a TLS Secret also holds).
fn certificate() -> String {
    let mut der = vec![0x30, 0x82, 0x03, 0x0d, 0x30, 0x82, 0x01, 0xf5, 0xa0, 0x03];
    der.extend(noise(11, 700));
    pem("CERTIFICATE", &der)
}

/// The files of the attack, with the line each secret is on.
fn plant(p: &Project) -> Vec<(&'static str, usize)> {
    let key = base64(rsa_key().as_bytes());
    let cert = base64(certificate().as_bytes());
    p.write(
        "k8s/tls.yaml",
        &format!(
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: web-tls\ntype: kubernetes.io/tls\n\
             data:\n  tls.crt: {cert}\n  tls.key: {key}\n"
        ),
    );
    p.write(
        "k8s/ssh.yaml",
        &format!(
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: deploy-ssh\n\
             type: kubernetes.io/ssh-auth\ndata:\n  ssh-privatekey: {key}\n"
        ),
    );
    let login = base64(b"deploy:Zq8vN2xR7kLp4sWt9bYcQ3");
    let docker = base64(
        format!(
            "{{\"auths\":{{\"registry.example.com\":{{\"username\":\"deploy\",\
             \"password\":\"Zq8vN2xR7kLp4sWt9bYcQ3\",\"auth\":\"{login}\"}}}}}}"
        )
        .as_bytes(),
    );
    p.write(
        "k8s/regcred.yaml",
        &format!(
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: regcred\n\
             type: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: {docker}\n"
        ),
    );
    let auth_only =
        base64(format!("{{\"auths\":{{\"ghcr.io\":{{\"auth\":\"{login}\"}}}}}}").as_bytes());
    p.write(
        "k8s/pull.json",
        &format!("{{\n  \"data\": {{\n    \".dockerconfigjson\": \"{auth_only}\"\n  }}\n}}\n"),
    );
    p.write(
        "src/deploy.go",
        &format!("package deploy\n\n// The deploy key.\nconst deployKey = \"{key}\"\n"),
    );
    p.write(
        "src/keys.py",
        &format!("import base64\n\nKEY = base64.b64decode(\n    '{key}')\n"),
    );
    // What `openssl pkcs12 -nodes` writes (Bag Attributes before the
    // BEGIN line), base64 wrapped at 76 columns in a YAML block scalar.
    let bagged =
        base64(format!("Bag Attributes\n    localKeyID: 01 00 00 00\n{}", rsa_key()).as_bytes());
    let wrapped: String = bagged
        .as_bytes()
        .chunks(76)
        .map(|c| format!("    {}\n", String::from_utf8_lossy(c)))
        .collect();
    p.write(
        "k8s/bagged.yaml",
        &format!("apiVersion: v1\nkind: Secret\ndata:\n  tls.key: |\n{wrapped}"),
    );
    vec![
        ("k8s/tls.yaml", 8),
        ("k8s/ssh.yaml", 7),
        ("k8s/regcred.yaml", 7),
        ("k8s/pull.json", 3),
        ("src/deploy.go", 4),
        ("src/keys.py", 4),
        ("k8s/bagged.yaml", 5),
    ]
}

/// What is no secret: a certificate, a plain manifest, a kubeconfig
/// without credentials, base64 of prose.
fn plant_harmless(p: &Project) {
    let cert = base64(certificate().as_bytes());
    let config =
        base64(b"{\"apiVersion\":\"v1\",\"kind\":\"Config\",\"clusters\":[{\"name\":\"dev\"}]}");
    let prose = base64(b"-----BEGIN NOTES----- nothing private here, only words and more words");
    p.write(
        "ok/ca.yaml",
        &format!(
            "apiVersion: v1\nkind: ConfigMap\ndata:\n  ca.crt: {cert}\n  config: {config}\n  \
             notes: {prose}\n"
        ),
    );
}

/// The default preset as `path` alone.
fn only(p: &Project, path: &str) {
    p.write(
        "ctxcurate.toml",
        &format!("[[presets.default.files]]\npath = \"{path}\"\n"),
    );
}

#[test]
fn base64_private_keys_and_registry_logins_refuse_a_build() {
    let p = Project::empty();
    let planted = plant(&p);
    for (path, line) in &planted {
        only(&p, path);
        let out = p.run(&["build"]);
        assert_eq!(out.status.code(), Some(1), "{path}: {}", stderr(&out));
        let err = stderr(&out);
        let kind = if path.contains("regcred") || path.contains("pull") {
            "credentials (base64)"
        } else {
            "private key (base64)"
        };
        assert!(
            err.contains(&format!("likely secret: {path}:{line}: {kind} ")),
            "{path}: {err}"
        );
        assert!(err.contains("--allow-secrets"), "{err}");
        assert!(stdout(&out).is_empty(), "{path}: nothing written");
    }
}

#[test]
fn base64_of_a_certificate_or_a_plain_manifest_is_no_secret() {
    let p = Project::empty();
    plant_harmless(&p);
    only(&p, "ok/ca.yaml");
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("likely secret"), "{}", stderr(&out));
}

#[test]
fn the_mcp_view_and_build_tools_refuse_base64_keys() {
    let p = Project::empty();
    let planted = plant(&p);
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"**\"\n",
    );
    let mut server = McpServer::start(&p, &[]);
    for (path, line) in &planted {
        let reply = server.call("view", json!({"path": path}));
        assert!(reply.is_error, "{path}: {}", reply.text);
        assert!(
            reply.text.contains(&format!("{path}:{line}"))
                && reply.text.contains("--allow-secrets"),
            "{path}: {}",
            reply.text
        );
    }
    let reply = server.call("build", json!({}));
    assert!(reply.is_error, "{}", reply.text);
    assert!(reply.text.contains("k8s/tls.yaml:8"), "{}", reply.text);
    assert!(!reply.text.contains("LS0tLS1CRUdJTi"), "never the secret");
}
