//! Tool-call arguments made up from a function's JSON schema: an object holding every
//! `required` key (every property when none is required), each with a value of its type.

use serde_json::{json, Map, Value};

/// The arguments, as the JSON text a model would send: always an object.
pub fn arguments(schema: &Value) -> String {
    match value_for("arguments", schema) {
        v @ Value::Object(_) => v.to_string(),
        _ => "{}".into(),
    }
}

fn value_for(name: &str, schema: &Value) -> Value {
    if let Some(first) = schema.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
        return first.clone();
    }
    let kind = match schema.get("type") {
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).find(|k| *k != "null").unwrap_or("string"),
        Some(Value::String(k)) => k.as_str(),
        _ if schema.get("properties").is_some() => "object",
        _ => "string",
    };
    match kind {
        "object" => {
            let props = schema.get("properties").and_then(Value::as_object);
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_else(|| props.map(|p| p.keys().map(String::as_str).collect()).unwrap_or_default());
            let mut out = Map::new();
            for key in required {
                let sub = props.and_then(|p| p.get(key)).unwrap_or(&Value::Null);
                out.insert(key.to_string(), value_for(key, sub));
            }
            Value::Object(out)
        }
        "array" => json!([value_for(name, schema.get("items").unwrap_or(&Value::Null))]),
        "integer" => json!(3),
        "number" => json!(2.5),
        "boolean" => json!(true),
        _ if name.contains("city") || name.contains("location") => json!("Paris"),
        _ => json!(format!("mock {name}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_the_required_keys_with_their_types() {
        let schema = json!({"type":"object","properties":{
            "city":{"type":"string"},"unit":{"type":"string","enum":["celsius","fahrenheit"]},
            "days":{"type":"integer"},"extra":{"type":"boolean"}},"required":["city","unit","days"]});
        let v: Value = serde_json::from_slice(arguments(&schema).as_bytes()).unwrap();
        assert_eq!(v, json!({"city":"Paris","unit":"celsius","days":3}));
        assert_eq!(arguments(&Value::Null), "{}");
        let v: Value =
            serde_json::from_slice(arguments(&json!({"properties":{"q":{"type":"string"}}})).as_bytes()).unwrap();
        assert_eq!(v, json!({"q":"mock q"}));
    }
}
