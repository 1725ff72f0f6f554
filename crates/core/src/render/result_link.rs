//! Result links: the analysed input in a URL *fragment* (`#…`, which browsers never send to a
//! server), so that opening the link analyses the same bytes again — the same verdict, the same
//! selection, the same highlights — in any browser, with nothing stored anywhere.
//!
//! Fragment: `v1;f=FORMAT;m=ROW;t=THRESHOLDS;d=DATA`. `v1` is the version tag; `f` (the format
//! chosen, absent when detected), `m` (the report shown, absent for the default) and `t` (the
//! thresholds a person changed, `maxline.fail:20,gzip_ratio.warn:0.12`, absent for the
//! defaults: the same verdict opens, not the defaults' one) are optional; `DATA` is the
//! input compressed with DEFLATE at level 9 (raw, no header: miniz_oxide, already in the page
//! for the gzip ratio) in base64url without padding. A link never holds the live mode's API key
//! or base URL: only the bytes that were analysed.
//!
//! The limit, [`MAX_LINK_CHARS`]: 32,000 characters of fragment. Chromium carries URLs up to
//! 2 MB but shows about 32 KB of one; a Slack message holds 40,000 characters and a GitHub
//! comment 65,536, so a link of this length, with the page's address and a sentence around it,
//! goes through both. DEFLATE-9 + base64 makes ~1.4 characters of every compressed byte: about
//! 23 KB compressed — 100 KB to a few MB of a typical loop or log. Longer inputs get no link,
//! and the page says so and offers the report file; a link is never cut.

use crate::analyze::Thresholds;
use crate::ingest::Format;

/// The version tag this build writes and reads.
pub const LINK_VERSION: &str = "v1";
/// Characters of fragment a link may have at most (see the module header).
pub const MAX_LINK_CHARS: usize = 32_000;
/// Bytes a link's data may inflate to at most: a link is a few tens of KB, so anything past
/// this is not one of ours (a "zip bomb" is refused, not decompressed).
pub const MAX_LINK_INPUT: usize = 64 << 20;

/// What a link carries: the input's bytes, the format chosen, the report shown and the
/// thresholds it was judged against.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedInput {
    pub bytes: Vec<u8>,
    /// The format chosen by the user (`None`: detected again).
    pub format: Option<Format>,
    /// The report shown (an index into the transcript's reports; `None`: the default one).
    pub selected: Option<usize>,
    /// What the input was judged against (the defaults unless a person changed some).
    pub thresholds: Thresholds,
}

/// Why a fragment could not be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// The fragment is not a result link at all (an anchor, empty).
    NotALink,
    /// Made by another version of the tool, which this one cannot read.
    OtherVersion(String),
    /// A result link, damaged: cut when it was copied, or edited.
    Damaged(&'static str),
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkError::NotALink => write!(f, "the address holds no result link"),
            LinkError::OtherVersion(v) => write!(
                f,
                "this link was made by another version of Coherency Analyzer (its format is \"{}\"; this page reads \"{LINK_VERSION}\" links)",
                v.chars().take(16).collect::<String>()
            ),
            LinkError::Damaged(why) => {
                write!(f, "the link is damaged ({why}): it may have been cut off when it was copied")
            }
        }
    }
}

/// The fragment (without `#`) for `input`, or its length when it is over [`MAX_LINK_CHARS`].
pub fn encode(input: &SharedInput) -> Result<String, usize> {
    let data = base64url(&miniz_oxide::deflate::compress_to_vec(&input.bytes, 9));
    let mut out = String::from(LINK_VERSION);
    if let Some(f) = input.format {
        out += &format!(";f={}", f.name());
    }
    if let Some(m) = input.selected {
        out += &format!(";m={m}");
    }
    let thresholds = input.thresholds.compact();
    if !thresholds.is_empty() {
        out += &format!(";t={thresholds}");
    }
    out += ";d=";
    out += &data;
    if out.len() > MAX_LINK_CHARS {
        Err(out.len())
    } else {
        Ok(out)
    }
}

/// A link's fields, its data still compressed: all that [`decode`] reads before it inflates
/// the data (the page reads these itself and has the data inflated in its analysis worker, so
/// that its own wasm holds no DEFLATE).
#[derive(Clone, Debug, PartialEq)]
pub struct LinkFields<'a> {
    pub format: Option<Format>,
    pub selected: Option<usize>,
    pub thresholds: Thresholds,
    /// The input, DEFLATE-9 in base64url.
    pub data: &'a str,
}

/// The input a fragment (with or without its `#`) carries.
pub fn decode(fragment: &str) -> Result<SharedInput, LinkError> {
    let LinkFields { format, selected, thresholds, data } = fields(fragment)?;
    let compressed = from_base64url(data).ok_or(LinkError::Damaged("not base64url"))?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&compressed, MAX_LINK_INPUT)
        .map_err(|_| LinkError::Damaged("the data does not decompress"))?;
    Ok(SharedInput { bytes, format, selected, thresholds })
}

/// The fields of a fragment (with or without its `#`), its data not inflated: the errors
/// [`decode`] gives but for damaged data.
pub fn fields(fragment: &str) -> Result<LinkFields<'_>, LinkError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let mut fields = fragment.split(';');
    let version = fields.next().unwrap_or_default();
    if version != LINK_VERSION {
        let looks_like_a_link = version.len() >= 2
            && version.starts_with('v')
            && version[1..].bytes().all(|b| b.is_ascii_digit())
            && fragment.contains(";d=");
        return Err(if looks_like_a_link { LinkError::OtherVersion(version.to_string()) } else { LinkError::NotALink });
    }
    let (mut format, mut selected, mut data) = (None, None, None);
    let mut thresholds = Thresholds::SEED;
    for field in fields {
        match field.split_once('=') {
            Some(("f", name)) => {
                format = Some(Format::from_name(name).ok_or(LinkError::Damaged("unknown format"))?);
            }
            Some(("m", m)) => selected = Some(m.parse().map_err(|_| LinkError::Damaged("bad message number"))?),
            Some(("t", t)) => {
                thresholds = Thresholds::from_compact(t).map_err(|_| LinkError::Damaged("bad thresholds"))?
            }
            Some(("d", d)) => data = Some(d),
            // Fields a later v1 may add are skipped.
            _ => {}
        }
    }
    let data = data.ok_or(LinkError::Damaged("no data"))?;
    Ok(LinkFields { format, selected, thresholds, data })
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `bytes` in base64url (RFC 4648 §5) without padding.
fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for k in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    out
}

/// The bytes of unpadded base64url `text` (`None` if it is not that).
fn from_base64url(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| ALPHABET.iter().position(|&a| a == c).map(|v| v as u32);
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.as_bytes().chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= value(c)? << (18 - 6 * i);
        }
        for k in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * k)) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_round_trips_every_length_and_matches_rfc_4648() {
        // RFC 4648 §10 vectors, unpadded.
        for (plain, coded) in
            [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE")]
        {
            assert_eq!(base64url(plain.as_bytes()), coded);
            assert_eq!(from_base64url(coded).as_deref(), Some(plain.as_bytes()));
        }
        let all: Vec<u8> = (0..=255).collect();
        for n in 0..all.len() {
            assert_eq!(from_base64url(&base64url(&all[..n])).as_deref(), Some(&all[..n]));
        }
        assert_eq!(base64url(&[0xfb, 0xff]), "-_8");
        assert_eq!(from_base64url("Zm9vY"), None, "a length of 4k + 1 is not base64");
        assert_eq!(from_base64url("Zm+v"), None, "'+' is standard base64, not base64url");
    }

    #[test]
    fn an_input_comes_back_byte_for_byte_with_its_format_and_selection() {
        let input = SharedInput {
            bytes: "Let me check again.\n".repeat(500).into_bytes(),
            format: Some(Format::Jsonl),
            selected: Some(3),
            thresholds: Thresholds::SEED,
        };
        let link = encode(&input).unwrap();
        assert!(link.starts_with("v1;f=jsonl;m=3;d="), "{link}");
        assert!(link.len() < 200, "a loop compresses: {} characters", link.len());
        assert_eq!(decode(&link), Ok(input.clone()));
        assert_eq!(decode(&format!("#{link}")), Ok(input));
        let plain =
            SharedInput { bytes: vec![0, 255, b'\n'], format: None, selected: None, thresholds: Thresholds::SEED };
        assert_eq!(decode(&encode(&plain).unwrap()), Ok(plain));
    }

    #[test]
    fn changed_thresholds_travel_in_the_link_and_bad_ones_are_refused() {
        let mut thresholds = Thresholds::SEED;
        thresholds.assign("maxline.fail=20").expect("a setting");
        thresholds.assign("gzip_ratio.warn=0.125").expect("a setting");
        let input = SharedInput { bytes: b"a refrain\n".to_vec(), format: None, selected: None, thresholds };
        let link = encode(&input).unwrap();
        assert!(link.starts_with("v1;t=maxline.fail:20,gzip_ratio.warn:0.125;d="), "{link}");
        assert_eq!(decode(&link), Ok(input));
        for bad in ["maxlines.fail:20", "maxline.fail:zero", "maxline.fail", "maxline.warn:30"] {
            let link = format!("v1;t={bad};d=AA");
            assert_eq!(decode(&link), Err(LinkError::Damaged("bad thresholds")), "{bad}");
        }
    }

    #[test]
    fn a_link_too_long_is_refused_with_its_length_not_cut() {
        // Random bytes do not compress.
        let mut x = 1u64;
        let bytes: Vec<u8> = (0..40_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let len =
            encode(&SharedInput { bytes, format: None, selected: None, thresholds: Thresholds::SEED }).unwrap_err();
        assert!(len > MAX_LINK_CHARS, "{len}");
    }

    #[test]
    fn damaged_foreign_and_other_version_fragments_say_what_they_are() {
        let link = encode(&SharedInput {
            bytes: b"hello there, a text".to_vec(),
            format: None,
            selected: None,
            thresholds: Thresholds::SEED,
        })
        .unwrap();
        assert_eq!(decode(""), Err(LinkError::NotALink));
        assert_eq!(decode("#section-2"), Err(LinkError::NotALink));
        assert_eq!(decode("v2;d=AAAA"), Err(LinkError::OtherVersion("v2".into())));
        let cut = &link[..link.len() - 5];
        assert!(matches!(decode(cut), Err(LinkError::Damaged(_))), "{:?}", decode(cut));
        assert_eq!(decode("v1;f=nonsense;d=AA"), Err(LinkError::Damaged("unknown format")));
        assert_eq!(decode("v1;m=x;d=AA"), Err(LinkError::Damaged("bad message number")));
        assert_eq!(decode("v1;f=jsonl"), Err(LinkError::Damaged("no data")));
        assert_eq!(decode("v1;d=a+b/"), Err(LinkError::Damaged("not base64url")));
        // Any cut of a real link is refused or decodes: never a panic.
        for end in 0..link.len() {
            let _ = decode(&link[..end]);
        }
        let message = LinkError::Damaged("the data does not decompress").to_string();
        assert!(message.contains("cut off when it was copied"), "{message}");
        assert!(LinkError::OtherVersion("v2".into()).to_string().contains("reads \"v1\" links"));
    }

    #[test]
    fn a_links_fields_are_decodes_and_so_are_its_errors_but_for_its_data() {
        let input = SharedInput {
            bytes: b"a text in a link".to_vec(),
            format: Some(Format::Jsonl),
            selected: Some(3),
            thresholds: Thresholds::from_compact("maxline.fail:20").unwrap(),
        };
        let link = encode(&input).unwrap();
        let with_hash = format!("#{link}");
        let read = fields(&with_hash).unwrap();
        assert_eq!((read.format, read.selected, read.thresholds), (input.format, input.selected, input.thresholds));
        assert!(link.ends_with(&format!(";d={}", read.data)));
        for fragment in
            ["", "#section-2", "v2;d=AAAA", "v1;f=nonsense;d=AA", "v1;m=x;d=AA", "v1;f=jsonl", "v1;t=x:y;d=A"]
        {
            assert_eq!(fields(fragment).map(|_| ()), decode(fragment).map(|_| ()), "{fragment:?}");
        }
        // Damaged data is found only when it is inflated.
        assert!(fields("v1;d=a+b/").is_ok());
        assert_eq!(decode("v1;d=a+b/"), Err(LinkError::Damaged("not base64url")));
    }

    #[test]
    fn a_bomb_is_refused_not_inflated() {
        let huge = vec![b'a'; MAX_LINK_INPUT + 1];
        let data = base64url(&miniz_oxide::deflate::compress_to_vec(&huge, 9));
        assert_eq!(decode(&format!("v1;d={data}")), Err(LinkError::Damaged("the data does not decompress")));
    }
}
