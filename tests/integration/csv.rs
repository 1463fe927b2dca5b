//! An RFC 4180 reader for the tests of CSV outputs (the report tests and
//! the report fuzz target share it).

/// A small RFC 4180 reader: quoted fields may hold commas, quotes and line
/// breaks.
pub fn records(text: &str) -> Vec<Vec<String>> {
    let (mut out, mut rec, mut field) = (Vec::new(), Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => rec.push(std::mem::take(&mut field)),
            (false, '\n') => {
                rec.push(std::mem::take(&mut field));
                out.push(std::mem::take(&mut rec));
            }
            (false, c) => field.push(c),
        }
    }
    out
}
