//! The thresholds a run uses: the defaults, then a config file's `[thresholds]` table
//! (`--config`: TOML, or JSON when the name ends in `.json`), then each `--threshold` in order.
//! Only the file's bytes are read here; names, values and their checks are the core's
//! (`Thresholds::apply_table`, `assign`, `check_order`).

use std::path::Path;

use coherency_core::analyze::Thresholds;

/// The one table a config file holds.
const TABLE: &str = "thresholds";

/// The thresholds from `config` (if any) and then `assignments`, checked; `Err` is the message
/// to print.
pub fn thresholds(config: Option<&Path>, assignments: &[String]) -> Result<Thresholds, String> {
    let mut t = Thresholds::SEED;
    if let Some(path) = config {
        let shown = path.to_string_lossy();
        let table = read_config(path).map_err(|why| format!("--config {shown}: {why}"))?;
        t.apply_table(&table).map_err(|e| format!("--config {shown}: {e}"))?;
    }
    for a in assignments {
        t.assign(a).map_err(|e| format!("--threshold {a}: {e}"))?;
    }
    t.check_order().map_err(|e| e.to_string())?;
    Ok(t)
}

/// The file's `[thresholds]` table, as JSON (an empty one when the file has none).
fn read_config(path: &Path) -> Result<serde_json::Value, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let is_json = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let whole: serde_json::Value = if is_json {
        serde_json::from_slice(&bytes).map_err(|e| format!("not JSON: {e}"))?
    } else {
        let text = std::str::from_utf8(&bytes).map_err(|_| "not UTF-8 text".to_string())?;
        let table: toml::Table = toml::from_str(text).map_err(|e| format!("not TOML: {}", e.message()))?;
        serde_json::to_value(table).map_err(|e| e.to_string())?
    };
    let serde_json::Value::Object(mut fields) = whole else {
        return Err(format!("expected a [{TABLE}] table"));
    };
    if let Some(other) = fields.keys().find(|k| *k != TABLE) {
        return Err(format!("unknown key '{other}': the file holds one [{TABLE}] table"));
    }
    match fields.remove(TABLE) {
        None => Ok(serde_json::Value::Object(serde_json::Map::new())),
        Some(table @ serde_json::Value::Object(_)) => Ok(table),
        Some(_) => Err(format!("'{TABLE}' must be a table of NAME = VALUE")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("coherency-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_toml_or_json_file_sets_thresholds_and_flags_win_over_it() {
        let toml = file("c.toml", "[thresholds]\nmaxline.warn = 8\nmaxline.fail = 20\n");
        let json = file("c.json", r#"{"thresholds": {"maxline": {"warn": 8, "fail": 20}}}"#);
        let from_toml = thresholds(Some(&toml), &[]).unwrap();
        assert_eq!((from_toml.maxline_warn, from_toml.maxline_fail), (8, 20));
        assert_eq!(thresholds(Some(&json), &[]).unwrap(), from_toml);
        let flagged = thresholds(Some(&toml), &["maxline.fail=30".into()]).unwrap();
        assert_eq!(flagged.maxline_fail, 30);
    }

    #[test]
    fn a_bad_file_says_what_is_wrong() {
        let other = file("other.toml", "[limits]\nmaxline = 3\n");
        assert!(thresholds(Some(&other), &[]).unwrap_err().contains("unknown key 'limits'"));
        let flat = file("flat.toml", "thresholds = 5\n");
        assert!(thresholds(Some(&flat), &[]).unwrap_err().contains("'thresholds' must be a table"));
        let broken = file("broken.toml", "[thresholds\n");
        assert!(thresholds(Some(&broken), &[]).unwrap_err().contains("not TOML"));
        let unknown = file("unknown.toml", "[thresholds]\nmaxlines.fail = 3\n");
        assert!(thresholds(Some(&unknown), &[])
            .unwrap_err()
            .contains("unknown threshold 'maxlines.fail'; the names are"));
        let order = file("order.toml", "[thresholds]\nmaxline.warn = 30\n");
        assert!(thresholds(Some(&order), &[]).unwrap_err().contains("WARN must come before FAIL: maxline.warn"));
        assert!(thresholds(Some(Path::new("/no/such/coherency.toml")), &[]).is_err());
    }
}
