"""Decoding OTLP/HTTP export bodies: OTLP/JSON by hand, compression, bombs and bad bodies."""

import gzip
import json
import random
import zlib

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue

from app.otlp import (
    BodyTooLarge,
    Decompressor,
    Limits,
    OtlpDecodeError,
    UnsupportedContentEncoding,
    UnsupportedContentType,
    content_encoding,
    decode_logs,
    decode_traces,
    decompress,
    plain_value,
    read_traces,
)

TRACE_ID = "5B8EFFF798038103D269B633813FC60C"
SPAN_ID = "EEE19B7EC3C1B174"
PARENT_ID = "EEE19B7EC3C1B173"


def _span_json(**overrides: object) -> dict:
    span = {
        "traceId": TRACE_ID,
        "spanId": SPAN_ID,
        "parentSpanId": PARENT_ID,
        "name": "chat gpt-4o-mini",
        "kind": 3,
        "startTimeUnixNano": "1544712660000000000",
        "endTimeUnixNano": 1544712661000000000,
        "droppedAttributesCount": 2,
        "attributes": [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
            {"key": "gen_ai.usage.input_tokens", "value": {"intValue": "91"}},
            {"key": "gen_ai.request.temperature", "value": {"doubleValue": 0.2}},
            {"key": "gen_ai.request.stream", "value": {"boolValue": False}},
            {"key": "raw", "value": {"bytesValue": "AAEC"}},
            {
                "key": "gen_ai.response.finish_reasons",
                "value": {"arrayValue": {"values": [{"stringValue": "stop"}]}},
            },
            {
                "key": "nested",
                "value": {
                    "kvlistValue": {
                        "values": [
                            {"key": "a", "value": {"intValue": 7}},
                            {"key": "b", "value": {}},
                        ]
                    }
                },
            },
        ],
        "events": [
            {
                "timeUnixNano": "1544712660500000000",
                "name": "gen_ai.user.message",
                "attributes": [{"key": "content", "value": {"stringValue": "Hi"}}],
            }
        ],
        "links": [{"traceId": TRACE_ID, "spanId": PARENT_ID}],
        "status": {"code": 1},
        "someFieldFromTheFuture": {"ignored": True},
    }
    span.update(overrides)
    return span


def _traces_json(*spans: dict) -> bytes:
    return json.dumps(
        {
            "resourceSpans": [
                {
                    "resource": {
                        "attributes": [{"key": "service.name", "value": {"stringValue": "shop"}}]
                    },
                    "scopeSpans": [
                        {"scope": {"name": "my.scope", "version": "1.0"}, "spans": list(spans)}
                    ],
                }
            ]
        }
    ).encode()


class TestOtlpJson:
    def test_a_hand_written_trace_request_decodes_to_its_span(self):
        [span] = decode_traces(_traces_json(_span_json()), "application/json; charset=utf-8")

        # Hex ids (any case) stay the ids, not base64-decoded garbage.
        assert span.trace_id == TRACE_ID.lower()
        assert span.span_id == SPAN_ID.lower()
        assert span.parent_span_id == PARENT_ID.lower()
        assert (span.kind, span.status_code) == (3, 1)
        assert (span.start_ns, span.end_ns) == (1544712660000000000, 1544712661000000000)
        assert span.attributes == {
            "gen_ai.operation.name": "chat",
            "gen_ai.usage.input_tokens": 91,
            "gen_ai.request.temperature": 0.2,
            "gen_ai.request.stream": False,
            "raw": b"\x00\x01\x02",
            "gen_ai.response.finish_reasons": ["stop"],
            "nested": {"a": 7, "b": None},
        }
        assert span.dropped_attributes == 2
        assert span.service_name == "shop"
        assert (span.scope_name, span.scope_version) == ("my.scope", "1.0")
        [event] = span.events
        assert (event.name, event.time_ns, event.attributes) == (
            "gen_ai.user.message",
            1544712660500000000,
            {"content": "Hi"},
        )

    def test_a_hand_written_logs_request_decodes_to_its_record(self):
        body = {
            "resourceLogs": [
                {
                    "resource": {
                        "attributes": [{"key": "service.name", "value": {"stringValue": "shop"}}]
                    },
                    "scopeLogs": [
                        {
                            "scope": {"name": "openai"},
                            "logRecords": [
                                {
                                    "observedTimeUnixNano": "1795685647148723730",
                                    "traceId": TRACE_ID,
                                    "spanId": SPAN_ID,
                                    "eventName": "gen_ai.choice",
                                    "severityNumber": 9,
                                    "body": {
                                        "kvlistValue": {
                                            "values": [
                                                {"key": "index", "value": {"intValue": "0"}},
                                                {
                                                    "key": "message",
                                                    "value": {
                                                        "kvlistValue": {
                                                            "values": [
                                                                {
                                                                    "key": "content",
                                                                    "value": {"stringValue": "Hi"},
                                                                }
                                                            ]
                                                        }
                                                    },
                                                },
                                            ]
                                        }
                                    },
                                },
                                # The deprecated event.name attribute names the event too.
                                {
                                    "attributes": [
                                        {
                                            "key": "event.name",
                                            "value": {"stringValue": "gen_ai.user.message"},
                                        }
                                    ]
                                },
                            ],
                        }
                    ],
                }
            ]
        }

        first, second = decode_logs(json.dumps(body).encode(), "application/json")

        assert (first.trace_id, first.span_id) == (TRACE_ID.lower(), SPAN_ID.lower())
        assert first.event_name == "gen_ai.choice"
        # timeUnixNano is unset: the observed time stands in.
        assert first.time_ns == 1795685647148723730
        assert first.severity_number == 9
        assert first.body == {"index": 0, "message": {"content": "Hi"}}
        assert first.resource == {"service.name": "shop"}
        assert (second.event_name, second.trace_id, second.span_id) == (
            "gen_ai.user.message",
            "",
            "",
        )

    def test_an_empty_request_has_no_spans(self):
        assert decode_traces(b"{}", "application/json") == []
        assert decode_traces(b"", "application/x-protobuf") == []

    @pytest.mark.parametrize(
        ("span", "message"),
        [
            (
                _span_json(traceId="zz" * 16),
                "resourceSpans[0].scopeSpans[0].spans[1].traceId is not hex",
            ),
            (_span_json(spanId="abc"), "spans[1].spanId must be 16 hex digits, not 3"),
            (_span_json(traceId=12), "spans[1].traceId must be a hex string"),
            (_span_json(traceId="0" * 32), "span 'chat gpt-4o-mini' has an all-zero trace id"),
            (_span_json(spanId="0" * 16), "span 'chat gpt-4o-mini' has an all-zero span id"),
            (_span_json(spanId=""), "span 'chat gpt-4o-mini' has no span id"),
        ],
    )
    def test_a_span_with_a_bad_id_is_rejected_alone_and_named(self, span: dict, message: str):
        """As in protobuf: the span is rejected (the answer's partial_success), the others kept."""
        traces = read_traces(_traces_json(_span_json(), span), "application/json")

        assert [kept.span_id for kept in traces.spans] == [SPAN_ID.lower()]
        assert traces.rejected == [message] or message in traces.rejected[0]

    def test_protobuf_spans_with_invalid_ids_are_rejected_alone(self):
        request = ExportTraceServiceRequest()
        spans = request.resource_spans.add().scope_spans.add().spans
        for name, trace_id, span_id in (
            ("good", bytes.fromhex(TRACE_ID), bytes.fromhex(SPAN_ID)),
            ("zeros", bytes(16), bytes.fromhex(SPAN_ID)),
            ("short", b"\x01\x02", bytes.fromhex(SPAN_ID)),
            ("zero span", bytes.fromhex(TRACE_ID), bytes(8)),
        ):
            span = spans.add()
            span.name, span.trace_id, span.span_id = name, trace_id, span_id

        traces = read_traces(request.SerializeToString(), "application/x-protobuf")

        assert [span.name for span in traces.spans] == ["good"]
        assert traces.rejected == [
            "span 'zeros' has an all-zero trace id",
            "span 'short' has a trace id of 2 bytes, not 16",
            "span 'zero span' has an all-zero span id",
        ]

    def test_a_bad_parent_or_link_id_is_read_as_absent(self):
        span = _span_json(parentSpanId="xyz", links=[{"traceId": "00", "spanId": SPAN_ID}])

        [decoded] = decode_traces(_traces_json(span), "application/json")

        assert (decoded.span_id, decoded.parent_span_id) == (SPAN_ID.lower(), "")

    def test_a_log_record_with_a_bad_id_is_tied_to_no_span(self):
        body = json.dumps(
            {
                "resourceLogs": [
                    {
                        "scopeLogs": [
                            {
                                "logRecords": [
                                    {"traceId": "zz", "spanId": SPAN_ID, "eventName": "a"},
                                    {"traceId": "0" * 32, "spanId": "0" * 16, "eventName": "b"},
                                ]
                            }
                        ]
                    }
                ]
            }
        ).encode()

        records = decode_logs(body, "application/json")

        assert [(r.event_name, r.trace_id, r.span_id) for r in records] == [
            ("a", "", ""),
            ("b", "", ""),
        ]

    @pytest.mark.parametrize(
        ("span", "message"),
        [
            (_span_json(kind=[3]), "not an OTLP/JSON ExportTraceServiceRequest"),
            (_span_json(startTimeUnixNano="soon"), "not an OTLP/JSON ExportTraceServiceRequest"),
        ],
    )
    def test_a_bad_field_is_named(self, span: dict, message: str):
        with pytest.raises(OtlpDecodeError, match=message.replace("[", r"\[").replace("]", r"\]")):
            decode_traces(_traces_json(span), "application/json")

    @pytest.mark.parametrize(
        ("body", "message"),
        [
            (b"{not json", "the body is not JSON"),
            (b"\xff\xfe", "the body is not JSON"),
            (b"[1, 2]", "not a JSON object"),
            (b"[" * 100_000 + b"]" * 100_000, "the body is not JSON|deeper than"),
        ],
    )
    def test_a_body_that_is_not_an_object_is_refused(self, body: bytes, message: str):
        with pytest.raises(OtlpDecodeError, match=message):
            decode_traces(body, "application/json")

    def test_a_span_nested_past_the_limit_is_rejected_alone_without_recursion(self):
        value: dict = {"stringValue": "leaf"}
        for _ in range(200):
            value = {"arrayValue": {"values": [value]}}
        deep = _span_json(attributes=[{"key": "deep", "value": value}])
        other = _span_json(spanId="b7ad6b7169203332")

        traces = read_traces(_traces_json(deep, other), "application/json")
        assert [span.span_id for span in traces.spans] == ["b7ad6b7169203332"]
        assert traces.rejected == [
            "resourceSpans[0].scopeSpans[0].spans[0] nests deeper than 120 levels"
        ]

    def test_json_nested_past_the_limit_outside_a_span_is_refused_without_recursion(self):
        value: dict = {"stringValue": "leaf"}
        for _ in range(200):
            value = {"arrayValue": {"values": [value]}}
        body = json.loads(_traces_json(_span_json()))
        body["resourceSpans"][0]["resource"]["attributes"].append({"key": "deep", "value": value})

        with pytest.raises(OtlpDecodeError, match="nests deeper than 160 levels"):
            decode_traces(json.dumps(body).encode(), "application/json")


def _varint(number: int) -> bytes:
    out = bytearray()
    while True:
        byte, number = number & 0x7F, number >> 7
        out.append(byte | (0x80 if number else 0))
        if not number:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


class TestProtobuf:
    def test_garbage_is_refused(self):
        with pytest.raises(OtlpDecodeError, match="not a protobuf ExportTraceServiceRequest"):
            decode_traces(b"\x0a\xff\xff\xff\xff\x0f", "application/x-protobuf")

    def test_nesting_past_protobufs_limit_is_refused(self):
        # Built by hand: the library itself refuses to build a message this deep.
        value = AnyValue(string_value="leaf").SerializeToString()
        for _ in range(200):
            value = _field(5, _field(1, value))  # AnyValue.array_value.values[0]
        key_value = _field(1, b"deep") + _field(2, value)
        span = _field(9, key_value)  # Span.attributes
        body = _field(1, _field(2, _field(2, span)))  # resource_spans.scope_spans.spans

        with pytest.raises(OtlpDecodeError, match="not a protobuf"):
            decode_traces(body, "application/x-protobuf")

    def test_values_nested_past_the_depth_limit_are_cut_not_recursed(self):
        value = AnyValue(string_value="leaf")
        for _ in range(50):
            outer = AnyValue()
            outer.kvlist_value.values.add(key="k").value.CopyFrom(value)
            value = outer

        plain = plain_value(value, Limits(max_depth=3))

        assert plain == {"k": {"k": {"k": None}}}

    def test_only_the_first_items_of_a_long_array_are_read(self):
        value = AnyValue()
        for number in range(10):
            value.array_value.values.add(int_value=number)

        assert plain_value(value, Limits(max_items=4)) == [0, 1, 2, 3]

    def test_spans_past_the_attribute_limit_count_the_rest_as_dropped(self):
        request = ExportTraceServiceRequest()
        span = request.resource_spans.add().scope_spans.add().spans.add()
        span.trace_id, span.span_id = bytes.fromhex(TRACE_ID), bytes.fromhex(SPAN_ID)
        span.dropped_attributes_count = 1
        for number in range(10):
            span.attributes.add(key=f"k{number}").value.int_value = number

        [decoded] = decode_traces(
            request.SerializeToString(), "application/x-protobuf", limits=Limits(max_attributes=4)
        )

        assert list(decoded.attributes) == ["k0", "k1", "k2", "k3"]
        assert decoded.dropped_attributes == 7


class TestBody:
    def test_gzip_and_deflate_bodies_decode(self):
        body = _traces_json(_span_json())

        for encoded, encoding in (
            (gzip.compress(body), "gzip"),
            (gzip.compress(body[:100]) + gzip.compress(body[100:]), "GZIP"),
            (zlib.compress(body), "deflate"),
            (body, "identity"),
        ):
            [span] = decode_traces(encoded, "application/json", encoding)
            assert span.span_id == SPAN_ID.lower()

    def test_a_body_fed_in_small_chunks_decodes(self):
        body = _traces_json(_span_json())
        reader = Decompressor("gzip", len(body))
        encoded = gzip.compress(body)
        for start in range(0, len(encoded), 7):
            reader.feed(encoded[start : start + 7])

        assert reader.finish() == body

    def test_a_whole_body_spanning_many_slices_decompresses(self):
        """`decompress` takes a body read whole (the receiver decompresses it once the export
        has its place): gzip members, zlib and raw deflate, each across slice boundaries."""
        body = random.Random(7).randbytes(300_000) + bytes(300_000)
        raw = zlib.compressobj(wbits=-zlib.MAX_WBITS)
        for encoded, encoding in (
            (gzip.compress(body[:200_000]) + gzip.compress(body[200_000:]), "gzip"),
            (zlib.compress(body), "deflate"),
            (raw.compress(body) + raw.flush(), "deflate"),
        ):
            assert len(encoded) > 4 * 65536
            assert decompress(bytearray(encoded), encoding, len(body)) == body
        assert content_encoding(" GZip ") == "gzip" and content_encoding(None) == ""
        with pytest.raises(UnsupportedContentEncoding):
            content_encoding("br")

    def test_a_decompression_bomb_is_refused_at_the_limit(self):
        # 64 MiB of zeros: about 64 KiB on the wire.
        bomb = gzip.compress(bytes(64 * 1024 * 1024), compresslevel=9)
        assert len(bomb) < 100_000

        with pytest.raises(BodyTooLarge, match="larger than 1048576 bytes once decompressed"):
            decode_traces(bomb, "application/x-protobuf", "gzip", max_body=1024 * 1024)

    def test_an_uncompressed_body_over_the_limit_is_refused(self):
        with pytest.raises(BodyTooLarge):
            decompress(bytes(11), None, 10)

    def test_a_body_at_the_limit_passes(self):
        assert decompress(gzip.compress(bytes(10)), "gzip", 10) == bytes(10)

    def test_a_body_is_held_once(self):
        # A body near LOUPE_OTLP_MAX_BYTES is not copied on its way to the decoder.
        body = bytes(10)
        assert decompress(body, None, 10) is body
        assert decompress(body, "identity", 10) is body
        reader = Decompressor(None, 10)
        reader.feed(body)
        assert reader.finish() is reader.finish()

    @pytest.mark.parametrize(
        ("body", "encoding", "message"),
        [
            (b"not gzip", "gzip", "the gzip body does not decompress"),
            (gzip.compress(b"x" * 1000, mtime=0)[:-12], "gzip", "the gzip body is truncated"),
            (zlib.compress(b"x") + b"junk", "deflate", "data after its end"),
        ],
    )
    def test_a_bad_encoding_is_named(self, body: bytes, encoding: str, message: str):
        with pytest.raises(OtlpDecodeError, match=message):
            decode_traces(body, "application/x-protobuf", encoding)

    @pytest.mark.parametrize("encoding", ["br", "zstd", "compress"])
    def test_an_unknown_encoding_is_unsupported_and_says_what_is(self, encoding: str):
        with pytest.raises(
            UnsupportedContentEncoding,
            match=f"Content-Encoding '{encoding}' is not supported: send gzip, deflate or identity",
        ):
            decode_traces(b"x", "application/x-protobuf", encoding)

    @pytest.mark.parametrize("content_type", [None, "", "text/plain", "application/protobuf"])
    def test_other_content_types_are_refused(self, content_type: str | None):
        said = "is not supported" if content_type else "The request has no Content-Type"
        with pytest.raises(UnsupportedContentType, match=said):
            decode_traces(b"", content_type)
