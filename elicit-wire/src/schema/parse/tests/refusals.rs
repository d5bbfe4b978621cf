//! Schemas and properties the parser refuses, each with the path and message it names.

use super::*;

#[test]
fn refused_schemas_name_the_path() {
    let cases: Vec<(Value, (String, String))> = vec![
        (json!([]), pair("requestedSchema", "expected an object")),
        (json!(null), pair("requestedSchema", "expected an object")),
        (
            json!({"properties": {}}),
            pair("requestedSchema", "missing `type`"),
        ),
        (
            json!({"type": "object"}),
            pair("requestedSchema", "missing `properties`"),
        ),
        (
            json!({"type": "array", "properties": {}}),
            pair("type", "must be `object`"),
        ),
        (
            json!({"type": "object", "properties": []}),
            pair("properties", "expected an object"),
        ),
        (
            json!({"type": "object", "properties": {}, "additionalProperties": false}),
            pair(
                "additionalProperties",
                "`additionalProperties` is not allowed at the root of an elicitation form",
            ),
        ),
        (
            json!({"type": "object", "properties": {}, "$defs": {}}),
            pair(
                "$defs",
                "`$defs` is not allowed at the root of an elicitation form",
            ),
        ),
        (
            json!({"type": "object", "properties": {}, "$schema": 1}),
            pair("$schema", "expected a string"),
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", 1]}),
            pair("required.1", "expected a string"),
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "a"]}),
            pair("required.1", "`a` is listed more than once"),
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["a", "b", "c"]}),
            pair("required.2", "`c` is not a declared property"),
        ),
        (
            json!({"type": "object", "properties": {}, "required": "a"}),
            pair("required", "expected an array of strings"),
        ),
        (
            json!({"type": "object", "properties": {"": {"type": "string"}}}),
            pair("properties", "property names must not be empty"),
        ),
        (
            json!({"type": "object", "properties": {"p": "string"}}),
            pair("properties.p", "expected an object"),
        ),
    ];
    for (schema, expected) in cases {
        assert_eq!(error_of(schema.clone()), expected, "{schema}");
    }
}

#[test]
fn refused_properties_name_the_path() {
    let cases: Vec<(Value, (&str, &str))> = vec![
        (json!({}), ("properties.p", "missing `type`")),
        (
            json!({"type": ["string", "null"]}),
            ("properties.p.type", "expected a string"),
        ),
        (
            json!({"type": "object", "properties": {}}),
            (
                "properties.p.type",
                "nested objects are not allowed in an elicitation form",
            ),
        ),
        (
            json!({"type": "null"}),
            (
                "properties.p.type",
                "`null` is not a property type of an elicitation form; expected `string`, `number`, `integer`, `boolean` or `array`",
            ),
        ),
        (
            json!({"type": "string", "pattern": "^a$"}),
            (
                "properties.p.pattern",
                "`pattern` is not allowed in a string property of an elicitation form",
            ),
        ),
        (
            json!({"type": "string", "$ref": "#/x"}),
            (
                "properties.p.$ref",
                "`$ref` is not allowed in a string property of an elicitation form",
            ),
        ),
        (
            json!({"type": "number", "exclusiveMinimum": 0}),
            (
                "properties.p.exclusiveMinimum",
                "`exclusiveMinimum` is not allowed in a number property of an elicitation form",
            ),
        ),
        (
            json!({"type": "integer", "multipleOf": 2}),
            (
                "properties.p.multipleOf",
                "`multipleOf` is not allowed in an integer property of an elicitation form",
            ),
        ),
        (
            json!({"type": "string", "const": "x"}),
            (
                "properties.p.const",
                "`const` is not allowed in a string property of an elicitation form",
            ),
        ),
        (
            json!({"type": "boolean", "minimum": 0}),
            (
                "properties.p.minimum",
                "`minimum` is not allowed in a boolean property of an elicitation form",
            ),
        ),
        (
            json!({"type": "string", "enum": ["a"], "minLength": 1}),
            (
                "properties.p.minLength",
                "`minLength` is not allowed in a single-select property of an elicitation form",
            ),
        ),
        (
            json!({"type": "string", "enum": ["a"], "oneOf": [{"const": "a", "title": "A"}]}),
            (
                "properties.p.oneOf",
                "`oneOf` is not allowed in a single-select property of an elicitation form",
            ),
        ),
        (
            json!({"type": "string", "enumNames": ["A"]}),
            (
                "properties.p.enumNames",
                "`enumNames` is not allowed in a string property of an elicitation form",
            ),
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}, "uniqueItems": true}),
            (
                "properties.p.uniqueItems",
                "`uniqueItems` is not allowed in a multi-select property of an elicitation form",
            ),
        ),
        (
            json!({"type": "string", "title": 5}),
            ("properties.p.title", "expected a string"),
        ),
        (
            json!({"type": "string", "description": null}),
            ("properties.p.description", "expected a string"),
        ),
        (
            json!({"type": "string", "minLength": -1}),
            ("properties.p.minLength", "expected a non-negative integer"),
        ),
        (
            json!({"type": "string", "maxLength": 1.5}),
            ("properties.p.maxLength", "expected a non-negative integer"),
        ),
        (
            json!({"type": "string", "maxLength": "5"}),
            ("properties.p.maxLength", "expected a non-negative integer"),
        ),
        (
            json!({"type": "string", "maxLength": 1e20}),
            ("properties.p.maxLength", "expected a non-negative integer"),
        ),
        (
            json!({"type": "string", "minLength": 5, "maxLength": 3}),
            ("properties.p.maxLength", "3 is less than `minLength` (5)"),
        ),
        (
            json!({"type": "string", "format": "phone"}),
            (
                "properties.p.format",
                "`phone` is not an allowed format; expected `email`, `uri`, `date` or `date-time`",
            ),
        ),
        (
            json!({"type": "string", "format": true}),
            ("properties.p.format", "expected a string"),
        ),
        (
            json!({"type": "string", "default": 5}),
            ("properties.p.default", "expected a string"),
        ),
        (
            json!({"type": "string", "maxLength": 2, "default": "abc"}),
            (
                "properties.p.default",
                "default must be at most 2 characters long",
            ),
        ),
        (
            json!({"type": "string", "minLength": 1, "default": ""}),
            (
                "properties.p.default",
                "default must be at least 1 character long",
            ),
        ),
        (
            json!({"type": "string", "format": "date", "default": "2023-02-29"}),
            (
                "properties.p.default",
                "default must be a valid date like 2024-01-31",
            ),
        ),
        (
            json!({"type": "number", "minimum": "0"}),
            ("properties.p.minimum", "expected a number"),
        ),
        (
            json!({"type": "integer", "minimum": 0.5}),
            ("properties.p.minimum", "expected a whole number"),
        ),
        (
            json!({"type": "integer", "maximum": 1.5}),
            ("properties.p.maximum", "expected a whole number"),
        ),
        (
            json!({"type": "integer", "default": 2.5}),
            ("properties.p.default", "expected a whole number"),
        ),
        (
            json!({"type": "number", "default": true}),
            ("properties.p.default", "expected a number"),
        ),
        (
            json!({"type": "number", "minimum": 10, "maximum": 9.5}),
            ("properties.p.maximum", "9.5 is less than `minimum` (10)"),
        ),
        (
            json!({"type": "integer", "minimum": 18446744073709551615u64, "maximum": -1}),
            (
                "properties.p.maximum",
                "-1 is less than `minimum` (18446744073709551615)",
            ),
        ),
        (
            json!({"type": "number", "minimum": 18, "default": 17.999}),
            ("properties.p.default", "default must be at least 18"),
        ),
        (
            json!({"type": "number", "maximum": 100, "default": 1e308}),
            ("properties.p.default", "default must be at most 100"),
        ),
        (
            json!({"type": "boolean", "default": "false"}),
            ("properties.p.default", "expected a boolean"),
        ),
        (
            json!({"type": "string", "enum": []}),
            ("properties.p.enum", "must list at least one option"),
        ),
        (
            json!({"type": "string", "enum": "a"}),
            ("properties.p.enum", "expected an array of strings"),
        ),
        (
            json!({"type": "string", "enum": ["a", 2]}),
            ("properties.p.enum.1", "expected a string"),
        ),
        (
            json!({"type": "string", "enum": ["a", "b", "a"]}),
            ("properties.p.enum.2", "`a` is listed more than once"),
        ),
        (
            json!({"type": "string", "enum": ["a", "b"], "default": "c"}),
            ("properties.p.default", "default must be one of `a`, `b`"),
        ),
        (
            json!({"type": "string", "enum": ["a"], "default": ["a"]}),
            ("properties.p.default", "expected a string"),
        ),
        (
            json!({"type": "string", "enum": ["a", "b"], "enumNames": ["A"]}),
            ("properties.p.enumNames", "has 1 names for 2 options"),
        ),
        (
            json!({"type": "string", "enum": ["a"], "enumNames": [null]}),
            ("properties.p.enumNames.0", "expected a string"),
        ),
        (
            json!({"type": "string", "oneOf": []}),
            ("properties.p.oneOf", "must list at least one option"),
        ),
        (
            json!({"type": "string", "oneOf": {}}),
            ("properties.p.oneOf", "expected an array of options"),
        ),
        (
            json!({"type": "string", "oneOf": ["a"]}),
            (
                "properties.p.oneOf.0",
                "expected an object with `const` and `title`",
            ),
        ),
        (
            json!({"type": "string", "oneOf": [{"const": "a"}]}),
            ("properties.p.oneOf.0", "missing `title`"),
        ),
        (
            json!({"type": "string", "oneOf": [{"title": "A"}]}),
            ("properties.p.oneOf.0", "missing `const`"),
        ),
        (
            json!({"type": "string", "oneOf": [{"const": 1, "title": "A"}]}),
            ("properties.p.oneOf.0.const", "expected a string"),
        ),
        (
            json!({"type": "string", "oneOf": [{"const": "a", "title": "A", "description": "x"}]}),
            (
                "properties.p.oneOf.0.description",
                "`description` is not allowed in an option of an elicitation form",
            ),
        ),
        (
            json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}, {"const": "a", "title": "B"}]}),
            ("properties.p.oneOf.1.const", "`a` is listed more than once"),
        ),
        (
            json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}], "default": "A"}),
            ("properties.p.default", "default must be one of `a`"),
        ),
        (
            json!({"type": "array"}),
            ("properties.p", "missing `items`"),
        ),
        (
            json!({"type": "array", "items": []}),
            ("properties.p.items", "expected an object"),
        ),
        (
            json!({"type": "array", "items": {}}),
            ("properties.p.items", "missing `enum` or `anyOf`"),
        ),
        (
            json!({"type": "array", "items": {"enum": ["a"]}}),
            ("properties.p.items", "missing `type`"),
        ),
        (
            json!({"type": "array", "items": {"type": "number", "enum": ["a"]}}),
            ("properties.p.items.type", "must be `string`"),
        ),
        (
            json!({"type": "array", "items": {"type": "object", "properties": {}}}),
            (
                "properties.p.items.properties",
                "`properties` is not allowed in the items of a multi-select property",
            ),
        ),
        (
            json!({"type": "array", "items": {"type": "string", "anyOf": [{"const": "a", "title": "A"}]}}),
            (
                "properties.p.items.type",
                "`type` is not allowed next to `anyOf` in the items of a multi-select property",
            ),
        ),
        (
            json!({"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}], "oneOf": []}}),
            (
                "properties.p.items.oneOf",
                "`oneOf` is not allowed next to `anyOf` in the items of a multi-select property",
            ),
        ),
        (
            json!({"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}, {"const": "b", "title": 2}]}}),
            ("properties.p.items.anyOf.1.title", "expected a string"),
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a", "a"]}}),
            ("properties.p.items.enum.1", "`a` is listed more than once"),
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}, "minItems": 2, "maxItems": 1}),
            ("properties.p.maxItems", "1 is less than `minItems` (2)"),
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}, "minItems": 2}),
            (
                "properties.p.minItems",
                "asks for at least 2 choices but there are only 1 options",
            ),
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}, "maxItems": -3}),
            ("properties.p.maxItems", "expected a non-negative integer"),
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}, "default": "a"}),
            ("properties.p.default", "expected an array of strings"),
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}, "default": ["a", 1]}),
            ("properties.p.default.1", "expected a string"),
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "default": ["a", "a"]}),
            ("properties.p.default", "default chooses `a` more than once"),
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "default": ["c"]}),
            (
                "properties.p.default",
                "default chooses `c`, which is not one of `a`, `b`",
            ),
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "minItems": 1, "default": []}),
            (
                "properties.p.default",
                "default must choose at least 1 option",
            ),
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 1, "default": ["a", "b"]}),
            (
                "properties.p.default",
                "default must choose at most 1 option",
            ),
        ),
    ];
    for (property, (path, message)) in cases {
        assert_eq!(
            prop_error(property.clone()),
            pair(path, message),
            "{property}"
        );
    }
}
