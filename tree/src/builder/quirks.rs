//! 13.2.6.4.1: the quirks mode a DOCTYPE token sets ("initial" insertion mode). The
//! identifier lists are the spec's; comparisons are ASCII case-insensitive.

use crate::dom::QuirksMode;

const QUIRKS_PREFIXES: &[&str] = &[
    "+//silmaril//dtd html pro v0r11 19970101//",
    "-//as//dtd html 3.0 aswedit + extensions//",
    "-//advasoft ltd//dtd html 3.0 aswedit + extensions//",
    "-//ietf//dtd html 2.0 level 1//",
    "-//ietf//dtd html 2.0 level 2//",
    "-//ietf//dtd html 2.0 strict level 1//",
    "-//ietf//dtd html 2.0 strict level 2//",
    "-//ietf//dtd html 2.0 strict//",
    "-//ietf//dtd html 2.0//",
    "-//ietf//dtd html 2.1e//",
    "-//ietf//dtd html 3.0//",
    "-//ietf//dtd html 3.2 final//",
    "-//ietf//dtd html 3.2//",
    "-//ietf//dtd html 3//",
    "-//ietf//dtd html level 0//",
    "-//ietf//dtd html level 1//",
    "-//ietf//dtd html level 2//",
    "-//ietf//dtd html level 3//",
    "-//ietf//dtd html strict level 0//",
    "-//ietf//dtd html strict level 1//",
    "-//ietf//dtd html strict level 2//",
    "-//ietf//dtd html strict level 3//",
    "-//ietf//dtd html strict//",
    "-//ietf//dtd html//",
    "-//metrius//dtd metrius presentational//",
    "-//microsoft//dtd internet explorer 2.0 html strict//",
    "-//microsoft//dtd internet explorer 2.0 html//",
    "-//microsoft//dtd internet explorer 2.0 tables//",
    "-//microsoft//dtd internet explorer 3.0 html strict//",
    "-//microsoft//dtd internet explorer 3.0 html//",
    "-//microsoft//dtd internet explorer 3.0 tables//",
    "-//netscape comm. corp.//dtd html//",
    "-//netscape comm. corp.//dtd strict html//",
    "-//o'reilly and associates//dtd html 2.0//",
    "-//o'reilly and associates//dtd html extended 1.0//",
    "-//o'reilly and associates//dtd html extended relaxed 1.0//",
    "-//sq//dtd html 2.0 hotmetal + extensions//",
    "-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//",
    "-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//",
    "-//spyglass//dtd html 2.0 extended//",
    "-//sun microsystems corp.//dtd hotjava html//",
    "-//sun microsystems corp.//dtd hotjava strict html//",
    "-//w3c//dtd html 3 1995-03-24//",
    "-//w3c//dtd html 3.2 draft//",
    "-//w3c//dtd html 3.2 final//",
    "-//w3c//dtd html 3.2//",
    "-//w3c//dtd html 3.2s draft//",
    "-//w3c//dtd html 4.0 frameset//",
    "-//w3c//dtd html 4.0 transitional//",
    "-//w3c//dtd html experimental 19960712//",
    "-//w3c//dtd html experimental 970421//",
    "-//w3c//dtd w3 html//",
    "-//w3o//dtd w3 html 3.0//",
    "-//webtechs//dtd mozilla html 2.0//",
    "-//webtechs//dtd mozilla html//",
];

fn starts_with_ci(s: &str, prefix: &str) -> bool {
    s.len() >= prefix.len() && s.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// The quirks mode for a DOCTYPE with these fields (None = missing).
pub(super) fn quirks_mode(
    name: Option<&str>,
    public_id: Option<&str>,
    system_id: Option<&str>,
    force_quirks: bool,
) -> QuirksMode {
    let public = public_id.unwrap_or("");
    if force_quirks
        || name != Some("html")
        || public.eq_ignore_ascii_case("-//W3O//DTD W3 HTML Strict 3.0//EN//")
        || public.eq_ignore_ascii_case("-/W3C/DTD HTML 4.0 Transitional/EN")
        || public.eq_ignore_ascii_case("HTML")
        || system_id.is_some_and(|s| {
            s.eq_ignore_ascii_case("http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd")
        })
        || QUIRKS_PREFIXES.iter().any(|p| starts_with_ci(public, p))
        || (system_id.is_none()
            && (starts_with_ci(public, "-//W3C//DTD HTML 4.01 Frameset//")
                || starts_with_ci(public, "-//W3C//DTD HTML 4.01 Transitional//")))
    {
        return QuirksMode::Quirks;
    }
    if starts_with_ci(public, "-//W3C//DTD XHTML 1.0 Frameset//")
        || starts_with_ci(public, "-//W3C//DTD XHTML 1.0 Transitional//")
        || (system_id.is_some()
            && (starts_with_ci(public, "-//W3C//DTD HTML 4.01 Frameset//")
                || starts_with_ci(public, "-//W3C//DTD HTML 4.01 Transitional//")))
    {
        return QuirksMode::LimitedQuirks;
    }
    QuirksMode::NoQuirks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doctypes() {
        assert_eq!(
            quirks_mode(Some("html"), None, None, false),
            QuirksMode::NoQuirks
        );
        assert_eq!(quirks_mode(None, None, None, false), QuirksMode::Quirks);
        assert_eq!(
            quirks_mode(
                Some("html"),
                Some("-//w3c//dtd html 4.01 transitional//en"),
                None,
                false
            ),
            QuirksMode::Quirks
        );
        assert_eq!(
            quirks_mode(
                Some("html"),
                Some("-//W3C//DTD HTML 4.01 Transitional//EN"),
                Some("x"),
                false
            ),
            QuirksMode::LimitedQuirks
        );
    }
}
