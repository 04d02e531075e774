--
-- PostgreSQL database dump
--

\restrict 6Ds3DC3W3c7dq84gWR49r9BYXhZsWjBgZ52ChlmiZUacz6GcRKqAg6lRbPqq5Tb

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: alembic_version; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.alembic_version (
    version_num character varying(32) NOT NULL
);


--
-- Name: api_key; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_key (
    id character varying(40) NOT NULL,
    tenant_id character varying(40) NOT NULL,
    key_hash character varying(64) NOT NULL,
    prefix character varying(16) NOT NULL,
    created_at timestamp with time zone NOT NULL,
    revoked_at timestamp with time zone,
    last_used_at timestamp with time zone
);


--
-- Name: blob; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.blob (
    sha256 character varying(64) NOT NULL,
    media_type character varying(32) NOT NULL,
    size integer NOT NULL,
    width integer NOT NULL,
    height integer NOT NULL,
    data bytea NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: blob_owner; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.blob_owner (
    tenant_id character varying(40) NOT NULL,
    sha256 character varying(64) NOT NULL
);


--
-- Name: blob_ref; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.blob_ref (
    sha256 character varying(64) NOT NULL,
    holder_id character varying(40) NOT NULL,
    tenant_id character varying(40) NOT NULL
);


--
-- Name: candidate_model; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.candidate_model (
    id character varying(40) NOT NULL,
    tenant_id character varying(40) NOT NULL,
    name character varying(256),
    base_url character varying(2048) NOT NULL,
    model character varying(256) NOT NULL,
    api_key_encrypted bytea,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: comparison; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.comparison (
    id character varying(40) NOT NULL,
    tenant_id character varying(40) NOT NULL,
    kind character varying(16) NOT NULL,
    baseline_id character varying(40) NOT NULL,
    candidate_id character varying(40) NOT NULL,
    alpha double precision NOT NULL,
    metrics jsonb NOT NULL,
    unmatched jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: dataset; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.dataset (
    id character varying(40) NOT NULL,
    tenant_id character varying(40) NOT NULL,
    name character varying(256) NOT NULL,
    format character varying(32) NOT NULL,
    filename character varying(512) NOT NULL,
    subsets jsonb NOT NULL,
    row_count integer NOT NULL,
    created_at timestamp with time zone NOT NULL,
    stored_bytes bigint DEFAULT '0'::bigint NOT NULL
);


--
-- Name: dataset_row; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.dataset_row (
    id integer NOT NULL,
    dataset_id character varying(40) NOT NULL,
    subset character varying(256) NOT NULL,
    index integer NOT NULL,
    line integer NOT NULL,
    kind character varying(8) NOT NULL,
    messages jsonb NOT NULL,
    answer text,
    labels jsonb,
    options jsonb,
    extra jsonb
);


--
-- Name: dataset_row_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.dataset_row_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: dataset_row_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.dataset_row_id_seq OWNED BY public.dataset_row.id;


--
-- Name: eval_definition; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.eval_definition (
    id character varying(40) NOT NULL,
    tenant_id character varying(40) NOT NULL,
    name character varying(256) NOT NULL,
    metadata jsonb,
    data_source_config jsonb NOT NULL,
    testing_criteria jsonb NOT NULL,
    specs jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL
);


--
-- Name: eval_file; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.eval_file (
    id character varying(40) NOT NULL,
    tenant_id character varying(40) NOT NULL,
    filename character varying(512) NOT NULL,
    purpose character varying(32) NOT NULL,
    bytes integer NOT NULL,
    content bytea NOT NULL,
    line_count integer NOT NULL,
    created_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone
);


--
-- Name: eval_run; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.eval_run (
    id character varying(40) NOT NULL,
    tenant_id character varying(40) NOT NULL,
    eval_id character varying(40) NOT NULL,
    data_source jsonb NOT NULL,
    model character varying(256),
    model_id character varying(40)
);


--
-- Name: evaluation; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.evaluation (
    id character varying(40) NOT NULL,
    tenant_id character varying(40) NOT NULL,
    name character varying(256),
    metadata jsonb NOT NULL,
    metrics jsonb NOT NULL,
    judge jsonb,
    webhook_endpoint_id character varying(40),
    status character varying(16) NOT NULL,
    total_test_cases integer NOT NULL,
    error jsonb,
    dispatch_attempts integer NOT NULL,
    heartbeat_at timestamp with time zone NOT NULL,
    created_at timestamp with time zone NOT NULL,
    started_at timestamp with time zone,
    completed_at timestamp with time zone,
    use_cache boolean DEFAULT true NOT NULL,
    kind character varying(16) DEFAULT 'evaluation'::character varying NOT NULL,
    cluster_by character varying(256),
    request_id character varying(128)
);


--
-- Name: idempotency_key; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.idempotency_key (
    id integer NOT NULL,
    tenant_id character varying(40) NOT NULL,
    key character varying(255) NOT NULL,
    fingerprint character varying(64) NOT NULL,
    status_code integer,
    response_body jsonb,
    response_headers jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: idempotency_key_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.idempotency_key_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: idempotency_key_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.idempotency_key_id_seq OWNED BY public.idempotency_key.id;


--
-- Name: judge_cache_entry; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.judge_cache_entry (
    scope character varying(80) NOT NULL,
    key character varying(64) NOT NULL,
    content text NOT NULL,
    logprobs jsonb,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: judge_claim; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.judge_claim (
    scope character varying(80) NOT NULL,
    key character varying(64) NOT NULL,
    holder character varying(40) NOT NULL,
    claimed_at timestamp with time zone NOT NULL
);


--
-- Name: metric_summary; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.metric_summary (
    evaluation_id character varying(40) NOT NULL,
    metric_index integer NOT NULL,
    stored integer NOT NULL,
    passed integer NOT NULL,
    failed integer NOT NULL,
    errored integer NOT NULL,
    score_sum double precision NOT NULL,
    scored integer NOT NULL,
    calls integer NOT NULL,
    prompt_tokens integer NOT NULL,
    completion_tokens integer NOT NULL,
    score_sq_sum double precision DEFAULT 0 NOT NULL,
    judge_cost_usd double precision DEFAULT 0 NOT NULL,
    judge_unpriced integer DEFAULT 0 NOT NULL,
    candidate_calls integer DEFAULT 0 NOT NULL,
    candidate_prompt_tokens integer DEFAULT 0 NOT NULL,
    candidate_completion_tokens integer DEFAULT 0 NOT NULL,
    candidate_cost_usd double precision DEFAULT 0 NOT NULL,
    candidate_unpriced integer DEFAULT 0 NOT NULL
);


--
-- Name: result; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.result (
    id character varying(40) NOT NULL,
    evaluation_id character varying(40) NOT NULL,
    test_case_index integer NOT NULL,
    test_case_id character varying(256) NOT NULL,
    metric_index integer NOT NULL,
    metric character varying(128) NOT NULL,
    type character varying(64) NOT NULL,
    score double precision,
    passed boolean,
    threshold double precision,
    reason text,
    error jsonb,
    judge_calls integer NOT NULL,
    prompt_tokens integer NOT NULL,
    completion_tokens integer NOT NULL,
    logs jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL,
    judge_cost_usd double precision,
    candidate_calls integer DEFAULT 0 NOT NULL,
    candidate_prompt_tokens integer DEFAULT 0 NOT NULL,
    candidate_completion_tokens integer DEFAULT 0 NOT NULL,
    candidate_cost_usd double precision,
    judge_model character varying(256),
    candidate_model character varying(256)
);


--
-- Name: run; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.run (
    id character varying(40) NOT NULL,
    tenant_id character varying(40) NOT NULL,
    dataset_id character varying(40) NOT NULL,
    model_id character varying(40),
    options jsonb NOT NULL
);


--
-- Name: run_score; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.run_score (
    run_id character varying(40) NOT NULL,
    key character varying(32) NOT NULL,
    subset character varying(256) NOT NULL,
    total double precision NOT NULL,
    num integer NOT NULL,
    total_sq double precision DEFAULT 0 NOT NULL,
    passed integer DEFAULT 0 NOT NULL,
    failed integer DEFAULT 0 NOT NULL
);


--
-- Name: signed_out_session; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.signed_out_session (
    nonce character varying(64) NOT NULL,
    expires_at timestamp with time zone NOT NULL
);


--
-- Name: tenant; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tenant (
    id character varying(40) NOT NULL,
    name character varying(200) NOT NULL,
    created_at timestamp with time zone NOT NULL,
    max_active_evaluations integer,
    daily_usd double precision,
    storage_bytes bigint
);


--
-- Name: test_case; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.test_case (
    id integer NOT NULL,
    evaluation_id character varying(40) NOT NULL,
    index integer NOT NULL,
    client_id character varying(256) NOT NULL,
    input jsonb,
    actual_output jsonb,
    expected_output jsonb,
    context jsonb,
    retrieval_context jsonb,
    metadata jsonb,
    messages jsonb,
    context_hash character varying(64)
);


--
-- Name: test_case_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.test_case_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: test_case_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.test_case_id_seq OWNED BY public.test_case.id;


--
-- Name: webhook_delivery; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_delivery (
    id character varying(40) NOT NULL,
    event_id character varying(40) NOT NULL,
    endpoint_id character varying(40) NOT NULL,
    attempt integer NOT NULL,
    succeeded boolean NOT NULL,
    status_code integer,
    response_body text,
    error character varying(1024),
    duration_ms integer NOT NULL,
    attempted_at timestamp with time zone NOT NULL
);


--
-- Name: webhook_endpoint; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_endpoint (
    id character varying(40) NOT NULL,
    tenant_id character varying(40) NOT NULL,
    url character varying(2048) NOT NULL,
    description character varying(512),
    enabled boolean NOT NULL,
    created_at timestamp with time zone NOT NULL,
    secret_encrypted bytea NOT NULL
);


--
-- Name: webhook_event; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_event (
    id character varying(40) NOT NULL,
    tenant_id character varying(40) NOT NULL,
    endpoint_id character varying(40) NOT NULL,
    type character varying(64) NOT NULL,
    payload text NOT NULL,
    status character varying(16) NOT NULL,
    attempt_count integer NOT NULL,
    next_attempt_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    delivered_at timestamp with time zone
);


--
-- Name: dataset_row id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dataset_row ALTER COLUMN id SET DEFAULT nextval('public.dataset_row_id_seq'::regclass);


--
-- Name: idempotency_key id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_key ALTER COLUMN id SET DEFAULT nextval('public.idempotency_key_id_seq'::regclass);


--
-- Name: test_case id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.test_case ALTER COLUMN id SET DEFAULT nextval('public.test_case_id_seq'::regclass);


--
-- Data for Name: alembic_version; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.alembic_version (version_num) FROM stdin;
whsec1
\.


--
-- Data for Name: api_key; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.api_key (id, tenant_id, key_hash, prefix, created_at, revoked_at, last_used_at) FROM stdin;
key_01a2184fb3e3dea1c3967459fa90	ten_01a2184fb3d87a43f0380fed096a	43457249c6b422f32aad01dfe332aa88bc5b632cc2fa282ea2f19745575ab5b1	lp_rLOJ213	2026-11-26 14:43:26.308161+00	\N	\N
key_01a2184fb3e84519c7434813202b	ten_01a2184fb3e7204064910497a645	7f2c9307308ff14223905a9b11bd2376d10cf1ebf5d2179c443020d32db677ea	lp_226Ellv	2026-11-26 14:43:26.312148+00	\N	\N
key_01a2184fb3de34dec7b00a63d9b1	ten_01a2184fb3d87a43f0380fed096a	15d078a38acc7e68dbcd08599621084bc74440a70e29b5aeb0b6621b16dab1f1	lp_Q_uU3r5	2026-11-26 14:43:26.303551+00	\N	2026-11-26 14:43:26.498828+00
\.


--
-- Data for Name: blob; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.blob (sha256, media_type, size, width, height, data, created_at) FROM stdin;
6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b	image/png	78	16	12	\\x89504e470d0a1a0a0000000d49484452000000100000000c0802000000e485aad60000001549444154789c63fccf401a602251fda88611a3010066af0117b14593b20000000049454e44ae426082	2026-11-26 14:43:26.547345+00
62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14	image/png	84	12	16	\\x89504e470d0a1a0a0000000d494844520000000c000000100802000000ad0309500000001b49444154789c636460f8cf400830115431aa6854110303030303007221011f201719470000000049454e44ae426082	2026-11-26 14:43:26.548544+00
b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8	image/png	172	32	32	\\x89504e470d0a1a0a0000000d4948445200000020000000200802000000fc18eda3000000734944415478daed95510ec0200843a5d9fdafcc0e30379a22312ef8fdda4623c57cd41e8c0ef87dc0c5823efb6e66a1ce5cb3a66390758f1864dd23120bdc3f79ac717f576d99034f14e043db55d10135014447f2c5b7eb89b44bcc54d05a9ee7216f129284ac2419638bad7027f7249f1e700370d81e3bc16ba3140000000049454e44ae426082	2026-11-26 14:43:34.934493+00
b14888c01b793a3ff2b7ef5d0212fe93f5f085dd7ab1c09fa6e09389d64fee35	image/png	172	32	32	\\x89504e470d0a1a0a0000000d4948445200000020000000200802000000fc18eda3000000734944415478daedd6410ac0200c04c0d88fd79fdb8317a14ddc287623e839313b8262922c4bd7257206ec36a0dc6567418def424412b4c1714418c13b32888821d0c2228800023b6617c11620a76cd75005f875352a7902efbbafd59304def846174330165febfd5d3013ff738774fea6f4010fdb4a3a7a33e146090000000049454e44ae426082	2026-11-26 14:43:34.944002+00
41958b3ff5f946024d5d42aec226ce5bb89b3c1c40ced3e073c5d47d7e8b89d4	image/png	97	32	32	\\x89504e470d0a1a0a0000000d4948445200000020000000200802000000fc18eda3000000284944415478daedcd410d00000804a0d3fe9d35850f372840cde45427028140201008040281e047b0b65a023e575f9f610000000049454e44ae426082	2026-11-26 14:43:34.94605+00
c4ac1ed857ead7ea4b6f5cd8fa524ee2c66c02feedf5bd670decb0c7757f23e6	image/png	116	32	32	\\x89504e470d0a1a0a0000000d4948445200000020000000200802000000fc18eda30000003b4944415478da636460f8cf404bc0c44063306ac1a8059403165c12ff49cf1e8c8ca371306ac1a805a3168c5a306a01ae4a62b4e1356ac1e0b700005080043f0931890e0000000049454e44ae426082	2026-11-26 14:43:34.947325+00
ea86b4bab2813a92a6df39df2242e44db1ac7e625851954d067a794223bb9f99	image/png	176	32	32	\\x89504e470d0a1a0a0000000d4948445200000020000000200802000000fc18eda3000000774944415478daed565b0ac03008d3b0fb5fd91d6045834ea4a0df79d0a2511531e92c4873adc1bcc143e2ecd46baa3151c336b5a88d7d1b14d5430c8aea211275751f8f5fd41dd6c41c5821fdbedc8d8a3568316032920fbea12fca3de2c8422ee5793cd29b8444a2b2ad188c92975de34ede49bedee00582e01e3b61a41f220000000049454e44ae426082	2026-11-26 14:43:34.951082+00
8f70a2eed10865d07de5779de0d8475e36a625a08b9fb5caca251d685eca189f	audio/wav	1644	0	0	\\x524946466406000057415645666d74201000000001000100401f0000803e00000200100064617461400600000000950aeb13e51ab21edd1e621baa14800bfb0058f6d9ec9ee581e100e128e49cea97f30afeb7085e12d819441e1c1f461c18164e0df0023bf870eeb8e6fee1d0e052e339e9d1f116fcd106be10b118b81d3c1f0e1d70170e0fe30425fa18f0ece799e2c0e099e2ece718f025fae3040e0f70170e1d3c1fb81db118be10d10616fcd1f139e952e3d0e0fee1b8e670ee3bf8f0024e0d1816461c1c1f441ed8195e12b7080afe97f39cea28e400e181e19ee5d9ec58f6fb00800baa14621bdd1eb21ee51aeb13950a00006bf515ec1be54ee123e19ee456eb80f405ffa8092713621a7f1e001fd81b6415690cf60149f7a2ed28e6bce1e4e0bae3e8e9b2f210fdc50790114819021e301fae1cc7162f0eea032ff942ef4fe748e2c4e0f2e290e8f2f01dfbdb05e80f1418671d401f671d1418e80fdb051dfbf2f090e8f2e2c4e048e24fe742ef2ff9ea032f0ec716ae1c301f021e48199011c50710fdb2f2e8e9bae3e4e0bce128e6a2ed49f7f601690c6415d81b001f7f1e621a2713a80905ff80f456eb9ee423e14ee11be515ec6bf50000950aeb13e51ab21edd1e621baa14800bfb0058f6d9ec9ee581e100e128e49cea97f30afeb7085e12d819441e1c1f461c18164e0df0023bf870eeb8e6fee1d0e052e339e9d1f116fcd106be10b118b81d3c1f0e1d70170e0fe30425fa18f0ece799e2c0e099e2ece718f025fae3040e0f70170e1d3c1fb81db118be10d10616fcd1f139e952e3d0e0fee1b8e670ee3bf8f0024e0d1816461c1c1f441ed8195e12b7080afe97f39cea28e400e181e19ee5d9ec58f6fb00800baa14621bdd1eb21ee51aeb13950a00006bf515ec1be54ee123e19ee456eb80f405ffa8092713621a7f1e001fd81b6415690cf60149f7a2ed28e6bce1e4e0bae3e8e9b2f210fdc50790114819021e301fae1cc7162f0eea032ff942ef4fe748e2c4e0f2e290e8f2f01dfbdb05e80f1418671d401f671d1418e80fdb051dfbf2f090e8f2e2c4e048e24fe742ef2ff9ea032f0ec716ae1c301f021e48199011c50710fdb2f2e8e9bae3e4e0bce128e6a2ed49f7f601690c6415d81b001f7f1e621a2713a80905ff80f456eb9ee423e14ee11be515ec6bf50000950aeb13e51ab21edd1e621baa14800bfb0058f6d9ec9ee581e100e128e49cea97f30afeb7085e12d819441e1c1f461c18164e0df0023bf870eeb8e6fee1d0e052e339e9d1f116fcd106be10b118b81d3c1f0e1d70170e0fe30425fa18f0ece799e2c0e099e2ece718f025fae3040e0f70170e1d3c1fb81db118be10d10616fcd1f139e952e3d0e0fee1b8e670ee3bf8f0024e0d1816461c1c1f441ed8195e12b7080afe97f39cea28e400e181e19ee5d9ec58f6fb00800baa14621bdd1eb21ee51aeb13950a00006bf515ec1be54ee123e19ee456eb80f405ffa8092713621a7f1e001fd81b6415690cf60149f7a2ed28e6bce1e4e0bae3e8e9b2f210fdc50790114819021e301fae1cc7162f0eea032ff942ef4fe748e2c4e0f2e290e8f2f01dfbdb05e80f1418671d401f671d1418e80fdb051dfbf2f090e8f2e2c4e048e24fe742ef2ff9ea032f0ec716ae1c301f021e48199011c50710fdb2f2e8e9bae3e4e0bce128e6a2ed49f7f601690c6415d81b001f7f1e621a2713a80905ff80f456eb9ee423e14ee11be515ec6bf50000950aeb13e51ab21edd1e621baa14800bfb0058f6d9ec9ee581e100e128e49cea97f30afeb7085e12d819441e1c1f461c18164e0df0023bf870eeb8e6fee1d0e052e339e9d1f116fcd106be10b118b81d3c1f0e1d70170e0fe30425fa18f0ece799e2c0e099e2ece718f025fae3040e0f70170e1d3c1fb81db118be10d10616fcd1f139e952e3d0e0fee1b8e670ee3bf8f0024e0d1816461c1c1f441ed8195e12b7080afe97f39cea28e400e181e19ee5d9ec58f6fb00800baa14621bdd1eb21ee51aeb13950a00006bf515ec1be54ee123e19ee456eb80f405ffa8092713621a7f1e001fd81b6415690cf60149f7a2ed28e6bce1e4e0bae3e8e9b2f210fdc50790114819021e301fae1cc7162f0eea032ff942ef4fe748e2c4e0f2e290e8f2f01dfbdb05e80f1418671d401f671d1418e80fdb051dfbf2f090e8f2e2c4e048e24fe742ef2ff9ea032f0ec716ae1c301f021e48199011c50710fdb2f2e8e9bae3e4e0bce128e6a2ed49f7f601690c6415d81b001f7f1e621a2713a80905ff80f456eb9ee423e14ee11be515ec6bf5	2026-11-26 14:43:34.953117+00
\.


--
-- Data for Name: blob_owner; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.blob_owner (tenant_id, sha256) FROM stdin;
ten_01a2184fb3d87a43f0380fed096a	62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14
ten_01a2184fb3d87a43f0380fed096a	6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b
ten_01a2184fb3d87a43f0380fed096a	41958b3ff5f946024d5d42aec226ce5bb89b3c1c40ced3e073c5d47d7e8b89d4
ten_01a2184fb3d87a43f0380fed096a	8f70a2eed10865d07de5779de0d8475e36a625a08b9fb5caca251d685eca189f
ten_01a2184fb3d87a43f0380fed096a	b14888c01b793a3ff2b7ef5d0212fe93f5f085dd7ab1c09fa6e09389d64fee35
ten_01a2184fb3d87a43f0380fed096a	b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8
ten_01a2184fb3d87a43f0380fed096a	c4ac1ed857ead7ea4b6f5cd8fa524ee2c66c02feedf5bd670decb0c7757f23e6
ten_01a2184fb3d87a43f0380fed096a	ea86b4bab2813a92a6df39df2242e44db1ac7e625851954d067a794223bb9f99
\.


--
-- Data for Name: blob_ref; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.blob_ref (sha256, holder_id, tenant_id) FROM stdin;
62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14	eval_01a2184fb4d0a60c6d6783f0fa2d	ten_01a2184fb3d87a43f0380fed096a
6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b	eval_01a2184fb4d0a60c6d6783f0fa2d	ten_01a2184fb3d87a43f0380fed096a
41958b3ff5f946024d5d42aec226ce5bb89b3c1c40ced3e073c5d47d7e8b89d4	ds_01a2184fd582bc77c43be6b01868	ten_01a2184fb3d87a43f0380fed096a
8f70a2eed10865d07de5779de0d8475e36a625a08b9fb5caca251d685eca189f	ds_01a2184fd582bc77c43be6b01868	ten_01a2184fb3d87a43f0380fed096a
b14888c01b793a3ff2b7ef5d0212fe93f5f085dd7ab1c09fa6e09389d64fee35	ds_01a2184fd582bc77c43be6b01868	ten_01a2184fb3d87a43f0380fed096a
b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8	ds_01a2184fd582bc77c43be6b01868	ten_01a2184fb3d87a43f0380fed096a
c4ac1ed857ead7ea4b6f5cd8fa524ee2c66c02feedf5bd670decb0c7757f23e6	ds_01a2184fd582bc77c43be6b01868	ten_01a2184fb3d87a43f0380fed096a
ea86b4bab2813a92a6df39df2242e44db1ac7e625851954d067a794223bb9f99	ds_01a2184fd582bc77c43be6b01868	ten_01a2184fb3d87a43f0380fed096a
41958b3ff5f946024d5d42aec226ce5bb89b3c1c40ced3e073c5d47d7e8b89d4	run_01a2184fd61a8b23e5f9af3efa17	ten_01a2184fb3d87a43f0380fed096a
8f70a2eed10865d07de5779de0d8475e36a625a08b9fb5caca251d685eca189f	run_01a2184fd61a8b23e5f9af3efa17	ten_01a2184fb3d87a43f0380fed096a
b14888c01b793a3ff2b7ef5d0212fe93f5f085dd7ab1c09fa6e09389d64fee35	run_01a2184fd61a8b23e5f9af3efa17	ten_01a2184fb3d87a43f0380fed096a
b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8	run_01a2184fd61a8b23e5f9af3efa17	ten_01a2184fb3d87a43f0380fed096a
c4ac1ed857ead7ea4b6f5cd8fa524ee2c66c02feedf5bd670decb0c7757f23e6	run_01a2184fd61a8b23e5f9af3efa17	ten_01a2184fb3d87a43f0380fed096a
ea86b4bab2813a92a6df39df2242e44db1ac7e625851954d067a794223bb9f99	run_01a2184fd61a8b23e5f9af3efa17	ten_01a2184fb3d87a43f0380fed096a
62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14	evalrun_01a2184fdcb70758a19b1310940c	ten_01a2184fb3d87a43f0380fed096a
6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b	evalrun_01a2184fdcb70758a19b1310940c	ten_01a2184fb3d87a43f0380fed096a
62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14	evalrun_01a2184fdf74fa9642c0d11cced3	ten_01a2184fb3d87a43f0380fed096a
6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b	evalrun_01a2184fdf74fa9642c0d11cced3	ten_01a2184fb3d87a43f0380fed096a
\.


--
-- Data for Name: candidate_model; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.candidate_model (id, tenant_id, name, base_url, model, api_key_encrypted, created_at) FROM stdin;
model_01a2184fd60697e6eafb5224a420	ten_01a2184fb3d87a43f0380fed096a	\N	http://127.0.0.1:44695/v1	candidate-vlm	\\x6741414141414272434557587671626253725059506d7836737434637238306b7734444e6b68356f5954636736635f64744e6e5f4a422d467a48514331756d424c726936394a746f4c54466b396d71546437655836576d38577a366234786a6e7549797776422d70575150416d61424a55314d374a79493d	2026-11-26 14:43:35.047323+00
\.


--
-- Data for Name: comparison; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.comparison (id, tenant_id, kind, baseline_id, candidate_id, alpha, metrics, unmatched, created_at) FROM stdin;
cmp_01a2184fd5197d35fc110cba5cd2	ten_01a2184fb3d87a43f0380fed096a	evaluation	eval_01a2184fb51331a2a31d690475ea	eval_01a2184fb5257a9f529447b6d531	0.05	[{"n": 12, "ci95": [-0.6666666666666666, -0.08333333333333333], "type": "exact_match", "notes": [], "metric": "exact_match", "errored": {"baseline": 0, "candidate": 0}, "p_value": 0.03881409182311233, "verdict": "no_detectable_change", "ci_method": "paired_bootstrap_bca", "baseline_mean": 1.0, "candidate_mean": 0.6666666666666666, "improved_items": 0, "mcnemar_p_value": 0.125, "mean_difference": -0.3333333333333333, "regressed_items": 4, "settings_differ": [], "adjusted_p_value": 0.07762818364622466, "wilcoxon_p_value": 0.125, "baseline_pass_rate": 1.0, "baseline_threshold": 1.0, "candidate_pass_rate": 0.6666666666666666, "candidate_threshold": 1.0, "pass_rate_difference": -0.33333333333333337, "minimum_detectable_effect": 0.4375431139205576}, {"n": 12, "ci95": [-0.6666666666666666, -0.08333333333333333], "type": "bleu", "notes": [], "metric": "bleu", "errored": {"baseline": 0, "candidate": 0}, "p_value": 0.03881409182311233, "verdict": "no_detectable_change", "ci_method": "paired_bootstrap_bca", "baseline_mean": 1.0, "candidate_mean": 0.6666666666666666, "improved_items": 0, "mcnemar_p_value": 0.125, "mean_difference": -0.3333333333333333, "regressed_items": 4, "settings_differ": [], "adjusted_p_value": 0.07762818364622466, "wilcoxon_p_value": 0.125, "baseline_pass_rate": 1.0, "baseline_threshold": 0.5, "candidate_pass_rate": 0.6666666666666666, "candidate_threshold": 0.5, "pass_rate_difference": -0.33333333333333337, "minimum_detectable_effect": 0.4375431139205576}]	{"items": [], "metrics": [], "baseline_only": 0, "duplicate_ids": 0, "candidate_only": 0, "mismatched_metrics": []}	2026-11-26 14:43:34.810892+00
\.


--
-- Data for Name: dataset; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.dataset (id, tenant_id, name, format, filename, subsets, row_count, created_at, stored_bytes) FROM stdin;
ds_01a2184fd582bc77c43be6b01868	ten_01a2184fb3d87a43f0380fed096a	vqa.zip	general_vqa	vqa.zip	[{"file": "vqa/example_vqa.jsonl", "name": "example_vqa", "rows": 5, "warnings": []}]	5	2026-11-26 14:43:34.98374+00	3164
\.


--
-- Data for Name: dataset_row; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.dataset_row (id, dataset_id, subset, index, line, kind, messages, answer, labels, options, extra) FROM stdin;
1	ds_01a2184fd582bc77c43be6b01868	example_vqa	0	1	vqa	[{"role": "user", "content": [{"text": "What shape is drawn in white?", "type": "text"}, {"blob": {"sent": {"bytes": 172, "width": 32, "format": "png", "height": 32}, "sha256": "b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8", "source": "data_url", "changes": [], "original": {"bytes": 172, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8"}}]}]	A circle	\N	\N	\N
2	ds_01a2184fd582bc77c43be6b01868	example_vqa	1	2	vqa	[{"role": "user", "content": [{"text": "What is the background colour of this image?", "type": "text"}, {"blob": {"sent": {"bytes": 172, "width": 32, "format": "png", "height": 32}, "sha256": "b14888c01b793a3ff2b7ef5d0212fe93f5f085dd7ab1c09fa6e09389d64fee35", "source": "data_url", "changes": [], "original": {"bytes": 172, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:b14888c01b793a3ff2b7ef5d0212fe93f5f085dd7ab1c09fa6e09389d64fee35"}}]}]	Green	\N	\N	\N
3	ds_01a2184fd582bc77c43be6b01868	example_vqa	2	3	vqa	[{"role": "system", "content": "You are a concise visual assistant. Answer in one short sentence."}, {"role": "user", "content": [{"text": "Compare the first image", "type": "text"}, {"blob": {"sent": {"bytes": 116, "width": 32, "format": "png", "height": 32}, "sha256": "c4ac1ed857ead7ea4b6f5cd8fa524ee2c66c02feedf5bd670decb0c7757f23e6", "source": "data_url", "changes": [], "original": {"bytes": 116, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:c4ac1ed857ead7ea4b6f5cd8fa524ee2c66c02feedf5bd670decb0c7757f23e6", "detail": "low"}}, {"text": "with the second image", "type": "text"}, {"blob": {"sent": {"bytes": 97, "width": 32, "format": "png", "height": 32}, "sha256": "41958b3ff5f946024d5d42aec226ce5bb89b3c1c40ced3e073c5d47d7e8b89d4", "source": "data_url", "changes": [], "original": {"bytes": 97, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:41958b3ff5f946024d5d42aec226ce5bb89b3c1c40ced3e073c5d47d7e8b89d4"}}, {"text": "Which one contains a shape?", "type": "text"}]}]	The first image contains a white square.	\N	\N	\N
4	ds_01a2184fd582bc77c43be6b01868	example_vqa	3	4	vqa	[{"role": "user", "content": [{"text": "Is the audio clip a pure tone? Also name the colour of the image.", "type": "text"}, {"type": "input_audio", "input_audio": {"data": "blob:sha256:8f70a2eed10865d07de5779de0d8475e36a625a08b9fb5caca251d685eca189f", "format": "wav"}}, {"blob": {"sent": {"bytes": 172, "width": 32, "format": "png", "height": 32}, "sha256": "b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8", "source": "data_url", "changes": [], "original": {"bytes": 172, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8"}}]}]	Yes, a pure tone; the image is red.	\N	\N	\N
5	ds_01a2184fd582bc77c43be6b01868	example_vqa	4	5	vqa	[{"role": "user", "content": [{"blob": {"sent": {"bytes": 176, "width": 32, "format": "png", "height": 32}, "sha256": "ea86b4bab2813a92a6df39df2242e44db1ac7e625851954d067a794223bb9f99", "source": "data_url", "changes": [], "original": {"bytes": 176, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:ea86b4bab2813a92a6df39df2242e44db1ac7e625851954d067a794223bb9f99"}}, {"text": " 图中的白色图形是什么形状？", "type": "text"}]}]	圆形	\N	\N	\N
\.


--
-- Data for Name: eval_definition; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.eval_definition (id, tenant_id, name, metadata, data_source_config, testing_criteria, specs, created_at, updated_at) FROM stdin;
eval_01a2184fdca0877a9ac7705a92a7	ten_01a2184fb3d87a43f0380fed096a	chart qa	{"team": "vision"}	{"type": "custom", "item_schema": {"type": "object", "required": ["question", "answer", "image"], "properties": {"image": {"type": "string"}, "answer": {"type": "string"}, "question": {"type": "string"}}}, "include_sample_schema": true}	[{"id": "exact-86b0e083-31e9-41ca-b664-5101fcdbab24", "name": "exact", "type": "string_check", "input": "{{ sample.output_text }}", "operation": "eq", "reference": "{{ item.answer }}"}, {"id": "fuzzy-c9883c5b-5515-49bd-a1c2-be3d194861a0", "name": "fuzzy", "type": "text_similarity", "input": "{{ sample.output_text }}", "reference": "{{ item.answer }}", "pass_threshold": 0.8, "evaluation_metric": "fuzzy_match"}, {"id": "judge-77f932b8-81f9-4f31-9a5b-f11cd714adb1", "name": "judge", "type": "label_model", "input": [{"role": "developer", "type": "message", "content": {"text": "LABEL-GRADER: label the answer.", "type": "input_text"}}, {"role": "user", "type": "message", "content": [{"text": "Answer: {{ sample.output_text }}", "type": "input_text"}, {"type": "input_image", "detail": "low", "image_url": "{{ item.image }}"}]}], "model": "judge-model", "labels": ["correct", "incorrect"], "passing_labels": ["correct"], "sampling_params": null}, {"id": "quality-a5c086bc-4a5a-4033-a347-be522410dbfa", "name": "quality", "type": "score_model", "input": [{"role": "system", "type": "message", "content": {"text": "SCORE-GRADER", "type": "input_text"}}, {"role": "user", "type": "message", "content": {"text": "Answer: {{ sample.output_text }}", "type": "input_text"}}], "model": "judge-model", "range": [0, 10], "pass_threshold": 5, "sampling_params": null}]	[{"name": "exact-86b0e083-31e9-41ca-b664-5101fcdbab24", "type": "string_check", "input": "{{ sample.output_text }}", "operation": "eq", "reference": "{{ item.answer }}"}, {"name": "fuzzy-c9883c5b-5515-49bd-a1c2-be3d194861a0", "type": "text_similarity", "input": "{{ sample.output_text }}", "reference": "{{ item.answer }}", "pass_threshold": 0.8, "evaluation_metric": "fuzzy_match"}, {"name": "judge-77f932b8-81f9-4f31-9a5b-f11cd714adb1", "type": "label_model", "input": [{"role": "developer", "content": "LABEL-GRADER: label the answer."}, {"role": "user", "content": [{"text": "Answer: {{ sample.output_text }}", "type": "input_text"}, {"type": "input_image", "detail": "low", "image_url": "{{ item.image }}"}]}], "model": "judge-model", "labels": ["correct", "incorrect"], "passing_labels": ["correct"]}, {"name": "quality-a5c086bc-4a5a-4033-a347-be522410dbfa", "type": "score_model", "input": [{"role": "system", "content": "SCORE-GRADER"}, {"role": "user", "content": "Answer: {{ sample.output_text }}"}], "model": "judge-model", "range": [0.0, 10.0], "pass_threshold": 5.0}]	2026-11-26 14:43:36.736893+00	2026-11-26 14:43:36.736893+00
\.


--
-- Data for Name: eval_file; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.eval_file (id, tenant_id, filename, purpose, bytes, content, line_count, created_at, expires_at) FROM stdin;
file_01a2184fdc834ab31842322d6941	ten_01a2184fb3d87a43f0380fed096a	rows.jsonl	evals	713	\\x7b226974656d223a207b227175657374696f6e223a20224361706974616c206f66204672616e63653f222c2022616e73776572223a20225061726973222c2022696d616765223a2022646174613a696d6167652f706e673b6261736536342c6956424f5277304b47676f414141414e5355684555674141414241414141414d434149414141446b686172574141414146556c45515652346e4750387a30416159434a522f61694745614d424147617641526578525a4f794141414141456c46546b5375516d4343227d2c202273616d706c65223a207b226f75747075745f74657874223a20225061726973227d7d0a7b226974656d223a207b227175657374696f6e223a202254776f20706c75732074776f3f222c2022616e73776572223a202234222c2022696d616765223a2022646174613a696d6167652f706e673b6261736536342c6956424f5277304b47676f414141414e53556845556741414141774141414151434149414141437441776c514141414147306c45515652346e474e6b59506a505141677745565178716d685545514d4441774d44414849684152386746786c484141414141456c46546b5375516d4343227d2c202273616d706c65223a207b226f75747075745f74657874223a202266697665227d7d0a7b226974656d223a207b227175657374696f6e223a2022536b7920636f6c6f75723f222c2022616e73776572223a2022426c7565222c2022696d616765223a2022646174613a696d6167652f706e673b6261736536342c6956424f5277304b47676f414141414e53556845556741414141774141414151434149414141437441776c514141414147306c45515652346e474e6b59506a505141677745565178716d685545514d4441774d44414849684152386746786c484141414141456c46546b5375516d4343227d2c202273616d706c65223a207b226f75747075745f74657874223a2022626c7565227d7d	3	2026-11-26 14:43:36.707781+00	\N
\.


--
-- Data for Name: eval_run; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.eval_run (id, tenant_id, eval_id, data_source, model, model_id) FROM stdin;
evalrun_01a2184fdcb70758a19b1310940c	ten_01a2184fb3d87a43f0380fed096a	eval_01a2184fdca0877a9ac7705a92a7	{"type": "jsonl", "source": {"type": "file_content", "content": [{"item": {"image": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAAFUlEQVR4nGP8z0AaYCJR/aiGEaMBAGavARexRZOyAAAAAElFTkSuQmCC", "answer": "Paris", "question": "Capital of France?"}, "sample": {"output_text": "Paris"}}, {"item": {"image": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAwAAAAQCAIAAACtAwlQAAAAG0lEQVR4nGNkYPjPQAgwEVQxqmhUEQMDAwMDAHIhAR8gFxlHAAAAAElFTkSuQmCC", "answer": "4", "question": "Two plus two?"}, "sample": {"output_text": "five"}}, {"item": {"image": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAwAAAAQCAIAAACtAwlQAAAAG0lEQVR4nGNkYPjPQAgwEVQxqmhUEQMDAwMDAHIhAR8gFxlHAAAAAElFTkSuQmCC", "answer": "Blue", "question": "Sky colour?"}, "sample": {"output_text": "blue"}}]}}	\N	\N
evalrun_01a2184fdf74fa9642c0d11cced3	ten_01a2184fb3d87a43f0380fed096a	eval_01a2184fdca0877a9ac7705a92a7	{"type": "jsonl", "source": {"id": "file_01a2184fdc834ab31842322d6941", "type": "file_id"}}	\N	\N
\.


--
-- Data for Name: evaluation; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.evaluation (id, tenant_id, name, metadata, metrics, judge, webhook_endpoint_id, status, total_test_cases, error, dispatch_attempts, heartbeat_at, created_at, started_at, completed_at, use_cache, kind, cluster_by, request_id) FROM stdin;
eval_01a2184fb4d0a60c6d6783f0fa2d	ten_01a2184fb3d87a43f0380fed096a	judged with images	{}	[{"name": "helpfulness", "type": "g_eval", "criteria": "Does the output answer the input?", "threshold": 0.5, "strict_mode": false, "top_logprobs": 20, "evaluation_params": ["input", "actual_output"]}, {"type": "faithfulness", "threshold": 0.5, "strict_mode": false, "include_reason": true, "penalize_ambiguous_claims": false}, {"type": "contextual_precision", "threshold": 0.5, "strict_mode": false, "include_reason": true}, {"type": "contextual_recall", "threshold": 0.5, "strict_mode": false, "include_reason": true}, {"type": "exact_match", "strip": true, "threshold": 1.0, "case_sensitive": true}, {"n": 1, "type": "bleu", "threshold": 0.5}]	{"host": "127.0.0.1:44695", "model": "judge-model", "metrics": {"0": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "1": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "2": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "3": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}}, "model_id": null}	we_01a2184fb4bf644e1182e0adb751	completed	3	\N	1	2026-11-26 14:43:26.741863+00	2026-11-26 14:43:26.554761+00	2026-11-26 14:43:26.651561+00	2026-11-26 14:43:26.781232+00	t	evaluation	\N	req_c13848daa3f74297871c6f601f498252
eval_01a2184fb51331a2a31d690475ea	ten_01a2184fb3d87a43f0380fed096a	baseline	{}	[{"type": "exact_match", "strip": true, "threshold": 1.0, "case_sensitive": true}, {"n": 1, "type": "bleu", "threshold": 0.5}]	{"host": "127.0.0.1:44695", "model": "judge-model", "metrics": {}, "model_id": null}	we_01a2184fb4bf644e1182e0adb751	completed	12	\N	1	2026-11-26 14:43:26.846926+00	2026-11-26 14:43:26.611834+00	2026-11-26 14:43:26.800446+00	2026-11-26 14:43:26.862089+00	t	evaluation	\N	req_043df5d29a7e4f2888eec79a5a4b38e8
eval_01a2184fb5257a9f529447b6d531	ten_01a2184fb3d87a43f0380fed096a	candidate	{}	[{"type": "exact_match", "strip": true, "threshold": 1.0, "case_sensitive": true}, {"n": 1, "type": "bleu", "threshold": 0.5}]	{"host": "127.0.0.1:44695", "model": "judge-model", "metrics": {}, "model_id": null}	we_01a2184fb4bf644e1182e0adb751	completed	12	\N	1	2026-11-26 14:43:26.985664+00	2026-11-26 14:43:26.629718+00	2026-11-26 14:43:26.950767+00	2026-11-26 14:43:27.014218+00	t	evaluation	\N	req_118939219c904da184b6fd01d3eff9a6
run_01a2184fd61a8b23e5f9af3efa17	ten_01a2184fb3d87a43f0380fed096a	vqa run	{}	[{"name": "rule", "type": "rouge", "variant": "l", "statistic": "r", "threshold": 0.5}]	{"host": "127.0.0.1:44695", "model": "judge-model", "metrics": {}, "model_id": null}	we_01a2184fb4bf644e1182e0adb751	completed	5	\N	1	2026-11-26 14:43:35.226734+00	2026-11-26 14:43:35.067304+00	2026-11-26 14:43:35.155008+00	2026-11-26 14:43:35.293361+00	t	run	\N	req_bc1b7dac30f54e3d85a2b28efe4fe364
evalrun_01a2184fdcb70758a19b1310940c	ten_01a2184fb3d87a43f0380fed096a	eval_run_inline	{}	[{"name": "exact-86b0e083-31e9-41ca-b664-5101fcdbab24", "type": "string_check", "input": "{{ sample.output_text }}", "operation": "eq", "reference": "{{ item.answer }}"}, {"name": "fuzzy-c9883c5b-5515-49bd-a1c2-be3d194861a0", "type": "text_similarity", "input": "{{ sample.output_text }}", "reference": "{{ item.answer }}", "pass_threshold": 0.8, "evaluation_metric": "fuzzy_match"}, {"name": "judge-77f932b8-81f9-4f31-9a5b-f11cd714adb1", "type": "label_model", "input": [{"role": "developer", "content": "LABEL-GRADER: label the answer."}, {"role": "user", "content": [{"text": "Answer: {{ sample.output_text }}", "type": "input_text"}, {"type": "input_image", "detail": "low", "image_url": "{{ item.image }}"}]}], "model": "judge-model", "labels": ["correct", "incorrect"], "passing_labels": ["correct"]}, {"name": "quality-a5c086bc-4a5a-4033-a347-be522410dbfa", "type": "score_model", "input": [{"role": "system", "content": "SCORE-GRADER"}, {"role": "user", "content": "Answer: {{ sample.output_text }}"}], "model": "judge-model", "range": [0.0, 10.0], "pass_threshold": 5.0}]	\N	we_01a2184fb4bf644e1182e0adb751	completed	3	\N	1	2026-11-26 14:43:37.055814+00	2026-11-26 14:43:36.760678+00	2026-11-26 14:43:36.804872+00	2026-11-26 14:43:37.108558+00	t	eval_run	\N	req_ac7bc7b6af434fa5b7b24a9723b54c55
evalrun_01a2184fdf74fa9642c0d11cced3	ten_01a2184fb3d87a43f0380fed096a	eval_run_file	{}	[{"name": "exact-86b0e083-31e9-41ca-b664-5101fcdbab24", "type": "string_check", "input": "{{ sample.output_text }}", "operation": "eq", "reference": "{{ item.answer }}"}, {"name": "fuzzy-c9883c5b-5515-49bd-a1c2-be3d194861a0", "type": "text_similarity", "input": "{{ sample.output_text }}", "reference": "{{ item.answer }}", "pass_threshold": 0.8, "evaluation_metric": "fuzzy_match"}, {"name": "judge-77f932b8-81f9-4f31-9a5b-f11cd714adb1", "type": "label_model", "input": [{"role": "developer", "content": "LABEL-GRADER: label the answer."}, {"role": "user", "content": [{"text": "Answer: {{ sample.output_text }}", "type": "input_text"}, {"type": "input_image", "detail": "low", "image_url": "{{ item.image }}"}]}], "model": "judge-model", "labels": ["correct", "incorrect"], "passing_labels": ["correct"]}, {"name": "quality-a5c086bc-4a5a-4033-a347-be522410dbfa", "type": "score_model", "input": [{"role": "system", "content": "SCORE-GRADER"}, {"role": "user", "content": "Answer: {{ sample.output_text }}"}], "model": "judge-model", "range": [0.0, 10.0], "pass_threshold": 5.0}]	\N	we_01a2184fb4bf644e1182e0adb751	completed	3	\N	1	2026-11-26 14:43:37.587865+00	2026-11-26 14:43:37.462399+00	2026-11-26 14:43:37.557657+00	2026-11-26 14:43:37.764168+00	t	eval_run	\N	req_150cbec26812473494423d885f624a83
\.


--
-- Data for Name: idempotency_key; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.idempotency_key (id, tenant_id, key, fingerprint, status_code, response_body, response_headers, created_at) FROM stdin;
1	ten_01a2184fb3d87a43f0380fed096a	upgrade-fixture-judged	3b67a6a8d42ca93538725016c41c7236bede4d170a67009996df0b2c1cb77673	202	{"id": "eval_01a2184fb4d0a60c6d6783f0fa2d", "kind": "evaluation", "name": "judged with images", "cache": true, "error": null, "judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "usage": {"calls": 0, "cost_usd": 0.0, "prompt_tokens": 0, "completion_tokens": 0}, "object": "evaluation", "status": "queued", "metrics": [{"name": "helpfulness", "type": "g_eval", "criteria": "Does the output answer the input?", "threshold": 0.5, "strict_mode": false, "top_logprobs": 20, "evaluation_params": ["input", "actual_output"]}, {"type": "faithfulness", "threshold": 0.5, "strict_mode": false, "include_reason": true, "penalize_ambiguous_claims": false}, {"type": "contextual_precision", "threshold": 0.5, "strict_mode": false, "include_reason": true}, {"type": "contextual_recall", "threshold": 0.5, "strict_mode": false, "include_reason": true}, {"type": "exact_match", "strip": true, "threshold": 1.0, "case_sensitive": true}, {"n": 1, "type": "bleu", "threshold": 0.5}], "cost_usd": 0.0, "eval_run": null, "metadata": {}, "recovery": null, "cluster_by": null, "created_at": "2026-11-26T14:43:26.554761Z", "per_metric": [{"n": 0, "std": null, "ci95": null, "type": "g_eval", "judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "label": "helpfulness", "usage": {"calls": 0, "cost_usd": 0.0, "prompt_tokens": 0, "completion_tokens": 0}, "failed": 0, "metric": "helpfulness", "passed": 0, "stderr": null, "errored": 0, "pending": 3, "ci_method": null, "clustered": null, "pass_rate": null, "mean_score": null, "interval_note": null, "pass_rate_ci95": null, "position_inconsistent": null}, {"n": 0, "std": null, "ci95": null, "type": "faithfulness", "judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "label": "faithfulness", "usage": {"calls": 0, "cost_usd": 0.0, "prompt_tokens": 0, "completion_tokens": 0}, "failed": 0, "metric": "faithfulness", "passed": 0, "stderr": null, "errored": 0, "pending": 3, "ci_method": null, "clustered": null, "pass_rate": null, "mean_score": null, "interval_note": null, "pass_rate_ci95": null, "position_inconsistent": null}, {"n": 0, "std": null, "ci95": null, "type": "contextual_precision", "judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "label": "contextual_precision", "usage": {"calls": 0, "cost_usd": 0.0, "prompt_tokens": 0, "completion_tokens": 0}, "failed": 0, "metric": "contextual_precision", "passed": 0, "stderr": null, "errored": 0, "pending": 3, "ci_method": null, "clustered": null, "pass_rate": null, "mean_score": null, "interval_note": null, "pass_rate_ci95": null, "position_inconsistent": null}, {"n": 0, "std": null, "ci95": null, "type": "contextual_recall", "judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "label": "contextual_recall", "usage": {"calls": 0, "cost_usd": 0.0, "prompt_tokens": 0, "completion_tokens": 0}, "failed": 0, "metric": "contextual_recall", "passed": 0, "stderr": null, "errored": 0, "pending": 3, "ci_method": null, "clustered": null, "pass_rate": null, "mean_score": null, "interval_note": null, "pass_rate_ci95": null, "position_inconsistent": null}, {"n": 0, "std": null, "ci95": null, "type": "exact_match", "judge": null, "label": "exact_match", "usage": {"calls": 0, "cost_usd": 0.0, "prompt_tokens": 0, "completion_tokens": 0}, "failed": 0, "metric": "exact_match", "passed": 0, "stderr": null, "errored": 0, "pending": 3, "ci_method": null, "clustered": null, "pass_rate": null, "mean_score": null, "interval_note": null, "pass_rate_ci95": null, "position_inconsistent": null}, {"n": 0, "std": null, "ci95": null, "type": "bleu", "judge": null, "label": "bleu", "usage": {"calls": 0, "cost_usd": 0.0, "prompt_tokens": 0, "completion_tokens": 0}, "failed": 0, "metric": "bleu", "passed": 0, "stderr": null, "errored": 0, "pending": 3, "ci_method": null, "clustered": null, "pass_rate": null, "mean_score": null, "interval_note": null, "pass_rate_ci95": null, "position_inconsistent": null}], "started_at": null, "webhook_url": "http://127.0.0.1:38403/hooks/87c02500733445a693f9986f0dcf47ca", "completed_at": null, "result_counts": {"total": 18, "failed": 0, "passed": 0, "errored": 0, "pending": 18, "skipped": 0, "canceled": 0}, "candidate_usage": {"calls": 0, "cost_usd": 0.0, "prompt_tokens": 0, "completion_tokens": 0}, "test_case_count": 3, "completed_with_errors": false}	{"Location": "/v1/evaluations/eval_01a2184fb4d0a60c6d6783f0fa2d", "Retry-After": "2"}	2026-11-26 14:43:26.53929+00
\.


--
-- Data for Name: judge_cache_entry; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.judge_cache_entry (scope, key, content, logprobs, created_at) FROM stdin;
ten_01a2184fb3d87a43f0380fed096a	e5f6aea48a971d904962a94af3b0410731197e34d76f19447b0ab737c0212ef3	{"verdicts": [{"verdict": "yes", "reason": "node 1"}, {"verdict": "no", "reason": "node 2"}], "reason": "Relevant node first."}	\N	2026-11-26 14:43:26.741489+00
ten_01a2184fb3d87a43f0380fed096a	4f1445c65a1f4c943fe5b49d9f017e29eb6a072fcf76ff796809018ce71f97e4	{"verdicts": [{"verdict": "yes", "reason": "node 1"}], "reason": "Fully covered."}	\N	2026-11-26 14:43:26.741491+00
ten_01a2184fb3d87a43f0380fed096a	5d6d45bb21fca9e73747b4b840c2e4e422eb4537b667ceee3aa5fb1c6e6daf95	{"verdicts": [{"verdict": "yes", "reason": "node 1"}, {"verdict": "no", "reason": "node 2"}], "reason": "Relevant node first."}	\N	2026-11-26 14:43:26.741492+00
ten_01a2184fb3d87a43f0380fed096a	5f2170eb6f7e6905a7fc9315f1a2e93ef13bc226309f160d23f1e602cdd99fac	{"verdicts": [{"verdict": "yes", "reason": "node 1"}], "reason": "Fully covered."}	\N	2026-11-26 14:43:26.741493+00
ten_01a2184fb3d87a43f0380fed096a	f3cdd02e6bf9019e515ecc9425036560af01114510bf233d60a608e96d18b061	{"verdicts": [{"verdict": "yes", "reason": "node 1"}, {"verdict": "no", "reason": "node 2"}], "reason": "Relevant node first."}	\N	2026-11-26 14:43:26.741493+00
ten_01a2184fb3d87a43f0380fed096a	6fb0c690a4f1e50d5b106850f178409a6a1e68443536ca031000b8dd83d64dcf	{"verdicts": [{"verdict": "yes", "reason": "node 1"}], "reason": "Fully covered."}	\N	2026-11-26 14:43:26.741494+00
ten_01a2184fb3d87a43f0380fed096a	0de74d353e2a4062bc2a98411a966bddf3121ecf2e7cd30022bc18f603eecad1	{"steps": ["Check the shape.", "Check the colour."]}	\N	2026-11-26 14:43:26.741494+00
ten_01a2184fb3d87a43f0380fed096a	ec9b840021f57fd9767ecde44daa7becb57600467baf9358c053f6a492af5abb	{"truths": ["The logo is a red circle."]}	\N	2026-11-26 14:43:26.741495+00
ten_01a2184fb3d87a43f0380fed096a	cef650397f0a2a84ba287a25ed9b473f91627bdf50cf33a8b92bf4a08059efdb	{"truths": ["The logo is a red circle."]}	\N	2026-11-26 14:43:26.741496+00
ten_01a2184fb3d87a43f0380fed096a	344468c5136c2f78fb357df20bc8a506d2e455b6671696aaa6eba2885996a9a5	{"truths": ["The logo is a red circle."]}	\N	2026-11-26 14:43:26.741496+00
ten_01a2184fb3d87a43f0380fed096a	f981d48dd81028976340b1603ab7015f0d0f4c05ee82bfc0199017a9e6fe3a91	{"reason": "It names the shape correctly.", "score": 8}	[{"token": "8", "logprob": -0.6931471805599453, "top_logprobs": [{"token": "8", "logprob": -0.6931471805599453}, {"token": "9", "logprob": -0.6931471805599453}]}]	2026-11-26 14:43:26.741497+00
ten_01a2184fb3d87a43f0380fed096a	2a254a940714b3434a34ad87ddac90cdeca094e51030e1cb9dda1b035936c6ff	{"reason": "It names the shape correctly.", "score": 8}	[{"token": "8", "logprob": -0.6931471805599453, "top_logprobs": [{"token": "8", "logprob": -0.6931471805599453}, {"token": "9", "logprob": -0.6931471805599453}]}]	2026-11-26 14:43:26.741498+00
ten_01a2184fb3d87a43f0380fed096a	2cd079696e524ffcf69f30c46caa79f81da2ed50899be3c156c612a9f62a1fcf	{"reason": "It names the shape correctly.", "score": 8}	[{"token": "8", "logprob": -0.6931471805599453, "top_logprobs": [{"token": "8", "logprob": -0.6931471805599453}, {"token": "9", "logprob": -0.6931471805599453}]}]	2026-11-26 14:43:26.741498+00
ten_01a2184fb3d87a43f0380fed096a	1e573771189248bc917f7284b7c8bfe0ab101ad1890bd89fa5f84b9c4c04ce90	{"claims": [{"claim": "It is a red circle.", "verdict": "yes"}, {"claim": "It is number 3.", "verdict": "idk", "reason": "?"}], "reason": "Mostly supported."}	\N	2026-11-26 14:43:26.741499+00
ten_01a2184fb3d87a43f0380fed096a	14fbc21329f875c6f4a3b877a7cc5217257a6c212317eb3312cc55c2a437e4aa	{"claims": [{"claim": "It is a red circle.", "verdict": "yes"}, {"claim": "It is number 3.", "verdict": "idk", "reason": "?"}], "reason": "Mostly supported."}	\N	2026-11-26 14:43:26.7415+00
ten_01a2184fb3d87a43f0380fed096a	340b13f651f134592cfa05fc03270c46a773e7a460354ec981114068d026d15d	{"claims": [{"claim": "It is a red circle.", "verdict": "yes"}, {"claim": "It is number 3.", "verdict": "idk", "reason": "?"}], "reason": "Mostly supported."}	\N	2026-11-26 14:43:26.7415+00
ten_01a2184fb3d87a43f0380fed096a	cf705ed107fcdfafdd4fd1fcd176cfda4a24f85d77d36b53ae1873b6dfbcf41d	{"steps": [{"description": "compare", "conclusion": "compared with the reference"}], "result": "correct"}	\N	2026-11-26 14:43:36.918895+00
ten_01a2184fb3d87a43f0380fed096a	c140919158ee5d962c4b518efb6d5f559c25caff93f5827148dc8b6ef7e9a1b5	{"steps": [{"description": "compare", "conclusion": "compared with the reference"}], "result": 9}	\N	2026-11-26 14:43:36.918902+00
ten_01a2184fb3d87a43f0380fed096a	7a654b6f711729a805dda50c05f84b5b9fb61f70a7e09385f5f7a18b62e639ac	{"steps": [{"description": "compare", "conclusion": "compared with the reference"}], "result": "incorrect"}	\N	2026-11-26 14:43:36.918903+00
ten_01a2184fb3d87a43f0380fed096a	0ce6355e1d7b09e92b1b8d1725e85f7d221446d3030f06d368da38723b60053d	{"steps": [{"description": "compare", "conclusion": "compared with the reference"}], "result": "incorrect"}	\N	2026-11-26 14:43:36.918904+00
ten_01a2184fb3d87a43f0380fed096a	6aaadf55ae5a0f42a11013e2f61826822603aeb866a37a0666085600b44d90c3	{"steps": [{"description": "compare", "conclusion": "compared with the reference"}], "result": 2}	\N	2026-11-26 14:43:36.918905+00
ten_01a2184fb3d87a43f0380fed096a	c1d10f64ce02230dac74303e9c8a63b4e88f07222f045a7b40637c19216121bb	{"steps": [{"description": "compare", "conclusion": "compared with the reference"}], "result": 2}	\N	2026-11-26 14:43:36.996146+00
\.


--
-- Data for Name: judge_claim; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.judge_claim (scope, key, holder, claimed_at) FROM stdin;
\.


--
-- Data for Name: metric_summary; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.metric_summary (evaluation_id, metric_index, stored, passed, failed, errored, score_sum, scored, calls, prompt_tokens, completion_tokens, score_sq_sum, judge_cost_usd, judge_unpriced, candidate_calls, candidate_prompt_tokens, candidate_completion_tokens, candidate_cost_usd, candidate_unpriced) FROM stdin;
eval_01a2184fb4d0a60c6d6783f0fa2d	0	3	3	0	0	2.55	3	4	310	65	2.1674999999999995	0.0011400000000000002	0	0	0	0	0	0
eval_01a2184fb4d0a60c6d6783f0fa2d	1	3	3	0	0	3	3	6	60	30	3	0.00036	0	0	0	0	0	0
eval_01a2184fb4d0a60c6d6783f0fa2d	2	3	3	0	0	3	3	3	30	15	3	0.00018	0	0	0	0	0	0
eval_01a2184fb4d0a60c6d6783f0fa2d	3	3	3	0	0	3	3	3	30	15	3	0.00018	0	0	0	0	0	0
eval_01a2184fb4d0a60c6d6783f0fa2d	4	3	0	3	0	0	3	0	0	0	0	0	0	0	0	0	0	0
eval_01a2184fb4d0a60c6d6783f0fa2d	5	3	3	0	0	1.7142857142857142	3	0	0	0	0.9795918367346939	0	0	0	0	0	0	0
eval_01a2184fb51331a2a31d690475ea	0	12	12	0	0	12	12	0	0	0	12	0	0	0	0	0	0	0
eval_01a2184fb51331a2a31d690475ea	1	12	12	0	0	12	12	0	0	0	12	0	0	0	0	0	0	0
eval_01a2184fb5257a9f529447b6d531	0	12	8	4	0	8	12	0	0	0	8	0	0	0	0	0	0	0
eval_01a2184fb5257a9f529447b6d531	1	12	8	4	0	8	12	0	0	0	8	0	0	0	0	0	0	0
run_01a2184fd61a8b23e5f9af3efa17	0	5	3	2	0	3	5	0	0	0	3	0	0	5	50	25	0.00015000000000000001	0
evalrun_01a2184fdcb70758a19b1310940c	0	3	1	2	0	1	3	0	0	0	1	0	0	0	0	0	0	0
evalrun_01a2184fdcb70758a19b1310940c	1	3	2	1	0	2	3	0	0	0	2	0	0	0	0	0	0	0
evalrun_01a2184fdcb70758a19b1310940c	2	3	1	2	0	1	3	3	30	15	1	0.00018	0	0	0	0	0	0
evalrun_01a2184fdcb70758a19b1310940c	3	3	1	2	0	13	3	3	30	15	89	0.00018	0	0	0	0	0	0
evalrun_01a2184fdf74fa9642c0d11cced3	0	3	1	2	0	1	3	0	0	0	1	0	0	0	0	0	0	0
evalrun_01a2184fdf74fa9642c0d11cced3	1	3	2	1	0	2	3	0	0	0	2	0	0	0	0	0	0	0
evalrun_01a2184fdf74fa9642c0d11cced3	2	3	1	2	0	1	3	0	0	0	1	0	0	0	0	0	0	0
evalrun_01a2184fdf74fa9642c0d11cced3	3	3	1	2	0	13	3	0	0	0	89	0	0	0	0	0	0	0
\.


--
-- Data for Name: result; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.result (id, evaluation_id, test_case_index, test_case_id, metric_index, metric, type, score, passed, threshold, reason, error, judge_calls, prompt_tokens, completion_tokens, logs, created_at, judge_cost_usd, candidate_calls, candidate_prompt_tokens, candidate_completion_tokens, candidate_cost_usd, judge_model, candidate_model) FROM stdin;
res_01a2184fb547b6a63847e224b426	eval_01a2184fb4d0a60c6d6783f0fa2d	0	case-0	4	exact_match	exact_match	0	f	1	actual_output differs from expected_output at character 12 (lengths 23 and 13)	\N	0	0	0	{"strip": true, "actual": "A red circle, number 0.", "expected": "A red circle.", "case_sensitive": true}	2026-11-26 14:43:26.664008+00	0	0	0	0	0	\N	\N
res_01a2184fb549e6cbb533a43de287	eval_01a2184fb4d0a60c6d6783f0fa2d	0	case-0	5	bleu	bleu	0.5714285714285714	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 0.5714	\N	0	0	0	{"bleu-1": 0.5714285714285714, "bleu-2": 0.3333333333333333, "bleu-3": 0.2, "bleu-4": 0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000022250738585072626, "Rouge-1-F": 0.49999999531250006, "Rouge-1-P": 0.4, "Rouge-1-R": 0.6666666666666666, "Rouge-2-F": 0.33333332888888895, "Rouge-2-P": 0.25, "Rouge-2-R": 0.5, "Rouge-L-F": 0.49999999531250006, "Rouge-L-P": 0.4, "Rouge-L-R": 0.6666666666666666}	2026-11-26 14:43:26.665119+00	0	0	0	0	0	\N	\N
res_01a2184fb549e4aa10e120d6945c	eval_01a2184fb4d0a60c6d6783f0fa2d	1	case-1	4	exact_match	exact_match	0	f	1	actual_output differs from expected_output at character 12 (lengths 23 and 13)	\N	0	0	0	{"strip": true, "actual": "A red circle, number 1.", "expected": "A red circle.", "case_sensitive": true}	2026-11-26 14:43:26.665434+00	0	0	0	0	0	\N	\N
res_01a2184fb54f40bf6e9caee61e3f	eval_01a2184fb4d0a60c6d6783f0fa2d	1	case-1	5	bleu	bleu	0.5714285714285714	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 0.5714	\N	0	0	0	{"bleu-1": 0.5714285714285714, "bleu-2": 0.3333333333333333, "bleu-3": 0.2, "bleu-4": 0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000022250738585072626, "Rouge-1-F": 0.49999999531250006, "Rouge-1-P": 0.4, "Rouge-1-R": 0.6666666666666666, "Rouge-2-F": 0.33333332888888895, "Rouge-2-P": 0.25, "Rouge-2-R": 0.5, "Rouge-L-F": 0.49999999531250006, "Rouge-L-P": 0.4, "Rouge-L-R": 0.6666666666666666}	2026-11-26 14:43:26.67131+00	0	0	0	0	0	\N	\N
res_01a2184fb54f3c030ddfc6de5c94	eval_01a2184fb4d0a60c6d6783f0fa2d	2	case-2	4	exact_match	exact_match	0	f	1	actual_output differs from expected_output at character 12 (lengths 23 and 13)	\N	0	0	0	{"strip": true, "actual": "A red circle, number 2.", "expected": "A red circle.", "case_sensitive": true}	2026-11-26 14:43:26.671676+00	0	0	0	0	0	\N	\N
res_01a2184fb5508a2769c9568f7716	eval_01a2184fb4d0a60c6d6783f0fa2d	2	case-2	5	bleu	bleu	0.5714285714285714	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 0.5714	\N	0	0	0	{"bleu-1": 0.5714285714285714, "bleu-2": 0.3333333333333333, "bleu-3": 0.2, "bleu-4": 0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000022250738585072626, "Rouge-1-F": 0.49999999531250006, "Rouge-1-P": 0.4, "Rouge-1-R": 0.6666666666666666, "Rouge-2-F": 0.33333332888888895, "Rouge-2-P": 0.25, "Rouge-2-R": 0.5, "Rouge-L-F": 0.49999999531250006, "Rouge-L-P": 0.4, "Rouge-L-R": 0.6666666666666666}	2026-11-26 14:43:26.672592+00	0	0	0	0	0	\N	\N
res_01a2184fb563a0b4c31f846c471c	eval_01a2184fb4d0a60c6d6783f0fa2d	0	case-0	2	contextual_precision	contextual_precision	1	t	0.5	Relevant node first.	\N	1	10	5	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "media": [{"sent": {"bytes": 78, "width": 16, "format": "png", "height": 12}, "field": "input[1]", "sha256": "6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b", "source": "data_url", "changes": [], "original": {"bytes": 78, "width": 16, "format": "png", "height": 12}}, {"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "field": "retrieval_context[1][0]", "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}], "model": "judge-model", "nodes": 2, "verdicts": [{"reason": "node 1", "verdict": "yes"}, {"reason": "node 2", "verdict": "no"}], "judge_json": {"verdicts": {"reason": "Relevant node first.", "verdicts": [{"reason": "node 1", "verdict": "yes"}, {"reason": "node 2", "verdict": "no"}]}}, "cached_calls": 0}	2026-11-26 14:43:26.691106+00	6e-05	0	0	0	0	judge-model	\N
res_01a2184fb5732c227d0b96629948	eval_01a2184fb4d0a60c6d6783f0fa2d	0	case-0	3	contextual_recall	contextual_recall	1	t	0.5	Fully covered.	\N	1	10	5	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "media": [{"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "field": "retrieval_context[1][0]", "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}], "model": "judge-model", "verdicts": [{"reason": "node 1", "verdict": "yes"}], "judge_json": {"verdicts": {"reason": "Fully covered.", "verdicts": [{"reason": "node 1", "verdict": "yes"}]}}, "cached_calls": 0}	2026-11-26 14:43:26.707705+00	6e-05	0	0	0	0	judge-model	\N
res_01a2184fb57b45f630366d07a361	eval_01a2184fb4d0a60c6d6783f0fa2d	1	case-1	2	contextual_precision	contextual_precision	1	t	0.5	Relevant node first.	\N	1	10	5	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "media": [{"sent": {"bytes": 78, "width": 16, "format": "png", "height": 12}, "field": "input[1]", "sha256": "6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b", "source": "data_url", "changes": [], "original": {"bytes": 78, "width": 16, "format": "png", "height": 12}}, {"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "field": "retrieval_context[1][0]", "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}], "model": "judge-model", "nodes": 2, "verdicts": [{"reason": "node 1", "verdict": "yes"}, {"reason": "node 2", "verdict": "no"}], "judge_json": {"verdicts": {"reason": "Relevant node first.", "verdicts": [{"reason": "node 1", "verdict": "yes"}, {"reason": "node 2", "verdict": "no"}]}}, "cached_calls": 0}	2026-11-26 14:43:26.715589+00	6e-05	0	0	0	0	judge-model	\N
res_01a2184fb5dbfe2f3377b7e6244f	eval_01a2184fb51331a2a31d690475ea	4	case-4	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 4", "expected": "the cat sat on mat 4", "case_sensitive": true}	2026-11-26 14:43:26.811537+00	0	0	0	0	0	\N	\N
res_01a2184fdcecb5e86f68bbf6c417	evalrun_01a2184fdcb70758a19b1310940c	2	2	1	fuzzy-c9883c5b-5515-49bd-a1c2-be3d194861a0	text_similarity	1	t	0.8	fuzzy_match is 1.0000 >= pass_threshold 0.8	\N	0	0	0	{"input": "blue", "reference": "Blue", "evaluation_metric": "fuzzy_match"}	2026-11-26 14:43:36.812946+00	0	0	0	0	0	\N	\N
res_01a2184fb57be309d027f9a39100	eval_01a2184fb4d0a60c6d6783f0fa2d	1	case-1	3	contextual_recall	contextual_recall	1	t	0.5	Fully covered.	\N	1	10	5	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "media": [{"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "field": "retrieval_context[1][0]", "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}], "model": "judge-model", "verdicts": [{"reason": "node 1", "verdict": "yes"}], "judge_json": {"verdicts": {"reason": "Fully covered.", "verdicts": [{"reason": "node 1", "verdict": "yes"}]}}, "cached_calls": 0}	2026-11-26 14:43:26.71583+00	6e-05	0	0	0	0	judge-model	\N
res_01a2184fb57c0d235acabcfb49d2	eval_01a2184fb4d0a60c6d6783f0fa2d	2	case-2	2	contextual_precision	contextual_precision	1	t	0.5	Relevant node first.	\N	1	10	5	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "media": [{"sent": {"bytes": 78, "width": 16, "format": "png", "height": 12}, "field": "input[1]", "sha256": "6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b", "source": "data_url", "changes": [], "original": {"bytes": 78, "width": 16, "format": "png", "height": 12}}, {"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "field": "retrieval_context[1][0]", "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}], "model": "judge-model", "nodes": 2, "verdicts": [{"reason": "node 1", "verdict": "yes"}, {"reason": "node 2", "verdict": "no"}], "judge_json": {"verdicts": {"reason": "Relevant node first.", "verdicts": [{"reason": "node 1", "verdict": "yes"}, {"reason": "node 2", "verdict": "no"}]}}, "cached_calls": 0}	2026-11-26 14:43:26.716042+00	6e-05	0	0	0	0	judge-model	\N
res_01a2184fb57cc8c55eecab61eb4f	eval_01a2184fb4d0a60c6d6783f0fa2d	2	case-2	3	contextual_recall	contextual_recall	1	t	0.5	Fully covered.	\N	1	10	5	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "media": [{"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "field": "retrieval_context[1][0]", "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}], "model": "judge-model", "verdicts": [{"reason": "node 1", "verdict": "yes"}], "judge_json": {"verdicts": {"reason": "Fully covered.", "verdicts": [{"reason": "node 1", "verdict": "yes"}]}}, "cached_calls": 0}	2026-11-26 14:43:26.716228+00	6e-05	0	0	0	0	judge-model	\N
res_01a2184fb58ff8bf57663b87d830	eval_01a2184fb4d0a60c6d6783f0fa2d	0	case-0	0	helpfulness	g_eval	0.85	t	0.5	It names the shape correctly.	\N	2	110	25	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "media": [{"sent": {"bytes": 78, "width": 16, "format": "png", "height": 12}, "field": "input[1]", "sha256": "6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b", "source": "data_url", "changes": [], "original": {"bytes": 78, "width": 16, "format": "png", "height": 12}}], "model": "judge-model", "steps": ["Check the shape.", "Check the colour."], "raw_score": 8.0, "judge_json": {"score": {"score": 8.0, "reason": "It names the shape correctly."}, "steps": {"steps": ["Check the shape.", "Check the colour."]}}, "score_mode": "logprob_weighted", "cached_calls": 0, "steps_source": "generated", "weighted_score": 8.5}	2026-11-26 14:43:26.735651+00	0.00042	0	0	0	0	judge-model	\N
res_01a2184fb59035b631923d03550b	eval_01a2184fb4d0a60c6d6783f0fa2d	1	case-1	0	helpfulness	g_eval	0.85	t	0.5	It names the shape correctly.	\N	1	100	20	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "media": [{"sent": {"bytes": 78, "width": 16, "format": "png", "height": 12}, "field": "input[1]", "sha256": "6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b", "source": "data_url", "changes": [], "original": {"bytes": 78, "width": 16, "format": "png", "height": 12}}], "model": "judge-model", "steps": ["Check the shape.", "Check the colour."], "raw_score": 8.0, "judge_json": {"score": {"score": 8.0, "reason": "It names the shape correctly."}, "steps": {"steps": ["Check the shape.", "Check the colour."]}}, "score_mode": "logprob_weighted", "cached_calls": 0, "steps_source": "shared", "weighted_score": 8.5}	2026-11-26 14:43:26.736145+00	0.00036	0	0	0	0	judge-model	\N
res_01a2184fb591adb6603a5e86cea6	eval_01a2184fb4d0a60c6d6783f0fa2d	2	case-2	0	helpfulness	g_eval	0.85	t	0.5	It names the shape correctly.	\N	1	100	20	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "media": [{"sent": {"bytes": 78, "width": 16, "format": "png", "height": 12}, "field": "input[1]", "sha256": "6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b", "source": "data_url", "changes": [], "original": {"bytes": 78, "width": 16, "format": "png", "height": 12}}], "model": "judge-model", "steps": ["Check the shape.", "Check the colour."], "raw_score": 8.0, "judge_json": {"score": {"score": 8.0, "reason": "It names the shape correctly."}, "steps": {"steps": ["Check the shape.", "Check the colour."]}}, "score_mode": "logprob_weighted", "cached_calls": 0, "steps_source": "shared", "weighted_score": 8.5}	2026-11-26 14:43:26.737262+00	0.00036	0	0	0	0	judge-model	\N
res_01a2184fb5dc6f9d365c9e8b7bc4	eval_01a2184fb51331a2a31d690475ea	4	case-4	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.812274+00	0	0	0	0	0	\N	\N
res_01a2184fb5dc3cb958f856fc431d	eval_01a2184fb51331a2a31d690475ea	5	case-5	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 5", "expected": "the cat sat on mat 5", "case_sensitive": true}	2026-11-26 14:43:26.812291+00	0	0	0	0	0	\N	\N
res_01a2184fb594b93b7ffeeddabbc8	eval_01a2184fb4d0a60c6d6783f0fa2d	0	case-0	1	faithfulness	faithfulness	1	t	0.5	Mostly supported.	\N	2	20	10	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "media": [{"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "field": "retrieval_context[1][0]", "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}], "model": "judge-model", "claims": ["It is a red circle.", "It is number 3."], "truths": ["The logo is a red circle."], "verdicts": [{"claim": "It is a red circle.", "reason": null, "verdict": "yes"}, {"claim": "It is number 3.", "reason": "?", "verdict": "idk"}], "judge_json": {"truths": {"truths": ["The logo is a red circle."]}, "verdicts": {"claims": [{"claim": "It is a red circle.", "reason": null, "verdict": "yes"}, {"claim": "It is number 3.", "reason": "?", "verdict": "idk"}], "reason": "Mostly supported."}}, "cached_calls": 0, "truths_shared": false}	2026-11-26 14:43:26.740912+00	0.00012	0	0	0	0	judge-model	\N
res_01a2184fb595bfe3703c3c7934a3	eval_01a2184fb4d0a60c6d6783f0fa2d	1	case-1	1	faithfulness	faithfulness	1	t	0.5	Mostly supported.	\N	2	20	10	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "media": [{"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "field": "retrieval_context[1][0]", "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}], "model": "judge-model", "claims": ["It is a red circle.", "It is number 3."], "truths": ["The logo is a red circle."], "verdicts": [{"claim": "It is a red circle.", "reason": null, "verdict": "yes"}, {"claim": "It is number 3.", "reason": "?", "verdict": "idk"}], "judge_json": {"truths": {"truths": ["The logo is a red circle."]}, "verdicts": {"claims": [{"claim": "It is a red circle.", "reason": null, "verdict": "yes"}, {"claim": "It is number 3.", "reason": "?", "verdict": "idk"}], "reason": "Mostly supported."}}, "cached_calls": 0, "truths_shared": false}	2026-11-26 14:43:26.741135+00	0.00012	0	0	0	0	judge-model	\N
res_01a2184fb59505eaabb180d2d055	eval_01a2184fb4d0a60c6d6783f0fa2d	2	case-2	1	faithfulness	faithfulness	1	t	0.5	Mostly supported.	\N	2	20	10	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "media": [{"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "field": "retrieval_context[1][0]", "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}], "model": "judge-model", "claims": ["It is a red circle.", "It is number 3."], "truths": ["The logo is a red circle."], "verdicts": [{"claim": "It is a red circle.", "reason": null, "verdict": "yes"}, {"claim": "It is number 3.", "reason": "?", "verdict": "idk"}], "judge_json": {"truths": {"truths": ["The logo is a red circle."]}, "verdicts": {"claims": [{"claim": "It is a red circle.", "reason": null, "verdict": "yes"}, {"claim": "It is number 3.", "reason": "?", "verdict": "idk"}], "reason": "Mostly supported."}}, "cached_calls": 0, "truths_shared": false}	2026-11-26 14:43:26.741331+00	0.00012	0	0	0	0	judge-model	\N
res_01a2184fb5d79a2648d7bfd4809a	eval_01a2184fb51331a2a31d690475ea	0	case-0	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 0", "expected": "the cat sat on mat 0", "case_sensitive": true}	2026-11-26 14:43:26.807658+00	0	0	0	0	0	\N	\N
res_01a2184fb5d899f807148ba19359	eval_01a2184fb51331a2a31d690475ea	0	case-0	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.808815+00	0	0	0	0	0	\N	\N
res_01a2184fb5d896cd77830e659fac	eval_01a2184fb51331a2a31d690475ea	1	case-1	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 1", "expected": "the cat sat on mat 1", "case_sensitive": true}	2026-11-26 14:43:26.808841+00	0	0	0	0	0	\N	\N
res_01a2184fb5d97332c4f887d8262e	eval_01a2184fb51331a2a31d690475ea	1	case-1	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.80965+00	0	0	0	0	0	\N	\N
res_01a2184fb5d905c1729431093912	eval_01a2184fb51331a2a31d690475ea	2	case-2	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 2", "expected": "the cat sat on mat 2", "case_sensitive": true}	2026-11-26 14:43:26.809671+00	0	0	0	0	0	\N	\N
res_01a2184fb5da80c4f82ed712da96	eval_01a2184fb51331a2a31d690475ea	2	case-2	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.810659+00	0	0	0	0	0	\N	\N
res_01a2184fb5da44b41f3574b82c77	eval_01a2184fb51331a2a31d690475ea	3	case-3	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 3", "expected": "the cat sat on mat 3", "case_sensitive": true}	2026-11-26 14:43:26.810697+00	0	0	0	0	0	\N	\N
res_01a2184fb5db1eaa5f362e005022	eval_01a2184fb51331a2a31d690475ea	3	case-3	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.811516+00	0	0	0	0	0	\N	\N
res_01a2184fb5ddb2c09ae742bbfed4	eval_01a2184fb51331a2a31d690475ea	5	case-5	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.813106+00	0	0	0	0	0	\N	\N
res_01a2184fb5dd17814ddef5d89701	eval_01a2184fb51331a2a31d690475ea	6	case-6	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 6", "expected": "the cat sat on mat 6", "case_sensitive": true}	2026-11-26 14:43:26.813127+00	0	0	0	0	0	\N	\N
res_01a2184fb5dd1a69fb29f81772b6	eval_01a2184fb51331a2a31d690475ea	6	case-6	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.813872+00	0	0	0	0	0	\N	\N
res_01a2184fb5dd442d339d3241138a	eval_01a2184fb51331a2a31d690475ea	7	case-7	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 7", "expected": "the cat sat on mat 7", "case_sensitive": true}	2026-11-26 14:43:26.81389+00	0	0	0	0	0	\N	\N
res_01a2184fb5e7e19b47fda09f9b73	eval_01a2184fb51331a2a31d690475ea	7	case-7	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.823918+00	0	0	0	0	0	\N	\N
res_01a2184fb5e7cc24c673bf1b36a9	eval_01a2184fb51331a2a31d690475ea	8	case-8	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 8", "expected": "the cat sat on mat 8", "case_sensitive": true}	2026-11-26 14:43:26.82397+00	0	0	0	0	0	\N	\N
res_01a2184fb5e8659e2ab326cd2974	eval_01a2184fb51331a2a31d690475ea	8	case-8	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.824826+00	0	0	0	0	0	\N	\N
res_01a2184fb5e88d51a2021801c79b	eval_01a2184fb51331a2a31d690475ea	9	case-9	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 9", "expected": "the cat sat on mat 9", "case_sensitive": true}	2026-11-26 14:43:26.82485+00	0	0	0	0	0	\N	\N
res_01a2184fb5e9a8a2693a4214fbd5	eval_01a2184fb51331a2a31d690475ea	9	case-9	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.8256+00	0	0	0	0	0	\N	\N
res_01a2184fb5e9832da0150a2b4ef1	eval_01a2184fb51331a2a31d690475ea	10	case-10	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 10", "expected": "the cat sat on mat 10", "case_sensitive": true}	2026-11-26 14:43:26.825619+00	0	0	0	0	0	\N	\N
res_01a2184fb5f6c18aa4052ce2f409	eval_01a2184fb51331a2a31d690475ea	10	case-10	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.838663+00	0	0	0	0	0	\N	\N
res_01a2184fb5f63ad17f4461b8f2e2	eval_01a2184fb51331a2a31d690475ea	11	case-11	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 11", "expected": "the cat sat on mat 11", "case_sensitive": true}	2026-11-26 14:43:26.838718+00	0	0	0	0	0	\N	\N
res_01a2184fb5f76fe784eb221ee7c5	eval_01a2184fb51331a2a31d690475ea	11	case-11	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.839688+00	0	0	0	0	0	\N	\N
res_01a2184fb66b9a6cafae13c3fdba	eval_01a2184fb5257a9f529447b6d531	0	case-0	0	exact_match	exact_match	0	f	1	actual_output differs from expected_output at character 0 (lengths 14 and 20)	\N	0	0	0	{"strip": true, "actual": "a dog ran away", "expected": "the cat sat on mat 0", "case_sensitive": true}	2026-11-26 14:43:26.955383+00	0	0	0	0	0	\N	\N
res_01a2184fb66cd9c24cfb9f56d332	eval_01a2184fb5257a9f529447b6d531	0	case-0	1	bleu	bleu	0	f	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 0.0000	\N	0	0	0	{"bleu-1": 0.0, "bleu-2": 0.0, "bleu-3": 0.0, "bleu-4": 0.0, "Rouge-1-F": 0.0, "Rouge-1-P": 0.0, "Rouge-1-R": 0.0, "Rouge-2-F": 0.0, "Rouge-2-P": 0.0, "Rouge-2-R": 0.0, "Rouge-L-F": 0.0, "Rouge-L-P": 0.0, "Rouge-L-R": 0.0}	2026-11-26 14:43:26.956761+00	0	0	0	0	0	\N	\N
res_01a2184fb66c970b82f6bd8e697a	eval_01a2184fb5257a9f529447b6d531	1	case-1	0	exact_match	exact_match	0	f	1	actual_output differs from expected_output at character 0 (lengths 14 and 20)	\N	0	0	0	{"strip": true, "actual": "a dog ran away", "expected": "the cat sat on mat 1", "case_sensitive": true}	2026-11-26 14:43:26.956799+00	0	0	0	0	0	\N	\N
res_01a2184fb66dafcfb302dc62a274	eval_01a2184fb5257a9f529447b6d531	1	case-1	1	bleu	bleu	0	f	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 0.0000	\N	0	0	0	{"bleu-1": 0.0, "bleu-2": 0.0, "bleu-3": 0.0, "bleu-4": 0.0, "Rouge-1-F": 0.0, "Rouge-1-P": 0.0, "Rouge-1-R": 0.0, "Rouge-2-F": 0.0, "Rouge-2-P": 0.0, "Rouge-2-R": 0.0, "Rouge-L-F": 0.0, "Rouge-L-P": 0.0, "Rouge-L-R": 0.0}	2026-11-26 14:43:26.957536+00	0	0	0	0	0	\N	\N
res_01a2184fb66dd88b313145f62620	eval_01a2184fb5257a9f529447b6d531	2	case-2	0	exact_match	exact_match	0	f	1	actual_output differs from expected_output at character 0 (lengths 14 and 20)	\N	0	0	0	{"strip": true, "actual": "a dog ran away", "expected": "the cat sat on mat 2", "case_sensitive": true}	2026-11-26 14:43:26.957558+00	0	0	0	0	0	\N	\N
res_01a2184fb66e119ca2a9e6361e09	eval_01a2184fb5257a9f529447b6d531	2	case-2	1	bleu	bleu	0	f	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 0.0000	\N	0	0	0	{"bleu-1": 0.0, "bleu-2": 0.0, "bleu-3": 0.0, "bleu-4": 0.0, "Rouge-1-F": 0.0, "Rouge-1-P": 0.0, "Rouge-1-R": 0.0, "Rouge-2-F": 0.0, "Rouge-2-P": 0.0, "Rouge-2-R": 0.0, "Rouge-L-F": 0.0, "Rouge-L-P": 0.0, "Rouge-L-R": 0.0}	2026-11-26 14:43:26.958248+00	0	0	0	0	0	\N	\N
res_01a2184fb66eb15e657ca0641c89	eval_01a2184fb5257a9f529447b6d531	3	case-3	0	exact_match	exact_match	0	f	1	actual_output differs from expected_output at character 0 (lengths 14 and 20)	\N	0	0	0	{"strip": true, "actual": "a dog ran away", "expected": "the cat sat on mat 3", "case_sensitive": true}	2026-11-26 14:43:26.958268+00	0	0	0	0	0	\N	\N
res_01a2184fb66f91b130b660f7beaf	eval_01a2184fb5257a9f529447b6d531	3	case-3	1	bleu	bleu	0	f	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 0.0000	\N	0	0	0	{"bleu-1": 0.0, "bleu-2": 0.0, "bleu-3": 0.0, "bleu-4": 0.0, "Rouge-1-F": 0.0, "Rouge-1-P": 0.0, "Rouge-1-R": 0.0, "Rouge-2-F": 0.0, "Rouge-2-P": 0.0, "Rouge-2-R": 0.0, "Rouge-L-F": 0.0, "Rouge-L-P": 0.0, "Rouge-L-R": 0.0}	2026-11-26 14:43:26.95905+00	0	0	0	0	0	\N	\N
res_01a2184fb66f3e31ff551f162bdd	eval_01a2184fb5257a9f529447b6d531	4	case-4	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 4", "expected": "the cat sat on mat 4", "case_sensitive": true}	2026-11-26 14:43:26.95907+00	0	0	0	0	0	\N	\N
res_01a2184fb670651369092b16fa74	eval_01a2184fb5257a9f529447b6d531	4	case-4	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.960379+00	0	0	0	0	0	\N	\N
res_01a2184fb670d2088f851b144835	eval_01a2184fb5257a9f529447b6d531	5	case-5	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 5", "expected": "the cat sat on mat 5", "case_sensitive": true}	2026-11-26 14:43:26.960414+00	0	0	0	0	0	\N	\N
res_01a2184fb6712588d39cc4cc511b	eval_01a2184fb5257a9f529447b6d531	5	case-5	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.961419+00	0	0	0	0	0	\N	\N
res_01a2184fb67160dceadbba3c19c9	eval_01a2184fb5257a9f529447b6d531	6	case-6	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 6", "expected": "the cat sat on mat 6", "case_sensitive": true}	2026-11-26 14:43:26.961445+00	0	0	0	0	0	\N	\N
res_01a2184fb6727f112aa2b03b021a	eval_01a2184fb5257a9f529447b6d531	6	case-6	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.962207+00	0	0	0	0	0	\N	\N
res_01a2184fb67224620551fb7764f4	eval_01a2184fb5257a9f529447b6d531	7	case-7	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 7", "expected": "the cat sat on mat 7", "case_sensitive": true}	2026-11-26 14:43:26.962227+00	0	0	0	0	0	\N	\N
res_01a2184fb67be56c9d6ffc0b25c7	eval_01a2184fb5257a9f529447b6d531	7	case-7	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.971526+00	0	0	0	0	0	\N	\N
res_01a2184fb67bda1d788c85205c2f	eval_01a2184fb5257a9f529447b6d531	8	case-8	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 8", "expected": "the cat sat on mat 8", "case_sensitive": true}	2026-11-26 14:43:26.971579+00	0	0	0	0	0	\N	\N
res_01a2184fb67c439ec6be2fec8d4b	eval_01a2184fb5257a9f529447b6d531	8	case-8	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.972381+00	0	0	0	0	0	\N	\N
res_01a2184fb67c913c819f203c0bad	eval_01a2184fb5257a9f529447b6d531	9	case-9	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 9", "expected": "the cat sat on mat 9", "case_sensitive": true}	2026-11-26 14:43:26.972405+00	0	0	0	0	0	\N	\N
res_01a2184fb67d00bb1bc3ee39deae	eval_01a2184fb5257a9f529447b6d531	9	case-9	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.973253+00	0	0	0	0	0	\N	\N
res_01a2184fb67d0742d92022961c4d	eval_01a2184fb5257a9f529447b6d531	10	case-10	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 10", "expected": "the cat sat on mat 10", "case_sensitive": true}	2026-11-26 14:43:26.973275+00	0	0	0	0	0	\N	\N
res_01a2184fb67eba72cdb83593c6d6	eval_01a2184fb5257a9f529447b6d531	10	case-10	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.974156+00	0	0	0	0	0	\N	\N
res_01a2184fb67e29c4a989a7bde962	eval_01a2184fb5257a9f529447b6d531	11	case-11	0	exact_match	exact_match	1	t	1	actual_output matches expected_output	\N	0	0	0	{"strip": true, "actual": "the cat sat on mat 11", "expected": "the cat sat on mat 11", "case_sensitive": true}	2026-11-26 14:43:26.974185+00	0	0	0	0	0	\N	\N
res_01a2184fb67f0993b02e10395719	eval_01a2184fb5257a9f529447b6d531	11	case-11	1	bleu	bleu	1	t	0.5	BLEU-1 (the 1-gram precision × brevity penalty) is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0}	2026-11-26 14:43:26.975187+00	0	0	0	0	0	\N	\N
res_01a2184fd6a34b5d6a77082b8a8c	run_01a2184fd61a8b23e5f9af3efa17	0	example_vqa/0	0	rule	rouge	1	t	0.5	ROUGE-L recall is 1.0000	\N	0	0	0	{"bleu-1": 0.6666666666666666, "bleu-2": 0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000022250738585072626, "bleu-3": 0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000022250738585072626, "bleu-4": 0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000022250738585072626, "Rouge-1-F": 0.7999999952000001, "Rouge-1-P": 0.6666666666666666, "Rouge-1-R": 1.0, "Rouge-2-F": 0.0, "Rouge-2-P": 0.0, "Rouge-2-R": 0.0, "Rouge-L-F": 0.7999999952000001, "Rouge-L-P": 0.6666666666666666, "Rouge-L-R": 1.0, "candidate": {"calls": 1, "finish_reason": "stop", "prompt_tokens": 10, "completion_tokens": 5}}	2026-11-26 14:43:35.203102+00	0	1	10	5	3e-05	\N	candidate-vlm
res_01a2184fd6b49220df5e9dfdf38c	run_01a2184fd61a8b23e5f9af3efa17	1	example_vqa/1	0	rule	rouge	1	t	0.5	ROUGE-L recall is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000022250738585072626, "bleu-3": 0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000022250738585072626, "bleu-4": 0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000022250738585072626, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.0, "Rouge-2-P": 0.0, "Rouge-2-R": 0.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0, "candidate": {"calls": 1, "finish_reason": "stop", "prompt_tokens": 10, "completion_tokens": 5}}	2026-11-26 14:43:35.220482+00	0	1	10	5	3e-05	\N	candidate-vlm
res_01a2184fd6b6b85cc6c4a8f572d9	run_01a2184fd61a8b23e5f9af3efa17	2	example_vqa/2	0	rule	rouge	1	t	0.5	ROUGE-L recall is 1.0000	\N	0	0	0	{"bleu-1": 1.0, "bleu-2": 1.0, "bleu-3": 1.0, "bleu-4": 1.0, "Rouge-1-F": 0.999999995, "Rouge-1-P": 1.0, "Rouge-1-R": 1.0, "Rouge-2-F": 0.999999995, "Rouge-2-P": 1.0, "Rouge-2-R": 1.0, "Rouge-L-F": 0.999999995, "Rouge-L-P": 1.0, "Rouge-L-R": 1.0, "candidate": {"calls": 1, "finish_reason": "stop", "prompt_tokens": 10, "completion_tokens": 5}}	2026-11-26 14:43:35.222725+00	0	1	10	5	3e-05	\N	candidate-vlm
res_01a2184fd6b893884407cc0a6917	run_01a2184fd61a8b23e5f9af3efa17	3	example_vqa/3	0	rule	rouge	0	f	0.5	ROUGE-L recall is 0.0000	\N	0	0	0	{"bleu-1": 0.0, "bleu-2": 0.0, "bleu-3": 0.0, "bleu-4": 0.0, "Rouge-1-F": 0.0, "Rouge-1-P": 0.0, "Rouge-1-R": 0.0, "Rouge-2-F": 0.0, "Rouge-2-P": 0.0, "Rouge-2-R": 0.0, "Rouge-L-F": 0.0, "Rouge-L-P": 0.0, "Rouge-L-R": 0.0, "candidate": {"calls": 1, "finish_reason": "stop", "prompt_tokens": 10, "completion_tokens": 5}}	2026-11-26 14:43:35.224121+00	0	1	10	5	3e-05	\N	candidate-vlm
res_01a2184fd6b8f882d235402c55a6	run_01a2184fd61a8b23e5f9af3efa17	4	example_vqa/4	0	rule	rouge	0	f	0.5	ROUGE-L recall is 0.0000	\N	0	0	0	{"bleu-1": 0.0, "bleu-2": 0.0, "bleu-3": 0.0, "bleu-4": 0.0, "Rouge-1-F": 0.0, "Rouge-1-P": 0.0, "Rouge-1-R": 0.0, "Rouge-2-F": 0.0, "Rouge-2-P": 0.0, "Rouge-2-R": 0.0, "Rouge-L-F": 0.0, "Rouge-L-P": 0.0, "Rouge-L-R": 0.0, "candidate": {"calls": 1, "finish_reason": "stop", "prompt_tokens": 10, "completion_tokens": 5}}	2026-11-26 14:43:35.224901+00	0	1	10	5	3e-05	\N	candidate-vlm
res_01a2184fdceccd63ca8ea165ad65	evalrun_01a2184fdcb70758a19b1310940c	0	0	0	exact-86b0e083-31e9-41ca-b664-5101fcdbab24	string_check	1	t	1	input equals reference	\N	0	0	0	{"input": "Paris", "operation": "eq", "reference": "Paris"}	2026-11-26 14:43:36.812237+00	0	0	0	0	0	\N	\N
res_01a2184fdcec9e973a6a2c9fc9b6	evalrun_01a2184fdcb70758a19b1310940c	0	0	1	fuzzy-c9883c5b-5515-49bd-a1c2-be3d194861a0	text_similarity	1	t	0.8	fuzzy_match is 1.0000 >= pass_threshold 0.8	\N	0	0	0	{"input": "Paris", "reference": "Paris", "evaluation_metric": "fuzzy_match"}	2026-11-26 14:43:36.812312+00	0	0	0	0	0	\N	\N
res_01a2184fdcec0f7871937e3e4316	evalrun_01a2184fdcb70758a19b1310940c	1	1	0	exact-86b0e083-31e9-41ca-b664-5101fcdbab24	string_check	0	f	1	not true that input equals reference	\N	0	0	0	{"input": "five", "operation": "eq", "reference": "4"}	2026-11-26 14:43:36.812682+00	0	0	0	0	0	\N	\N
res_01a2184fdcecb7a36dec1039beb0	evalrun_01a2184fdcb70758a19b1310940c	1	1	1	fuzzy-c9883c5b-5515-49bd-a1c2-be3d194861a0	text_similarity	0	f	0.8	fuzzy_match is 0.0000 < pass_threshold 0.8	\N	0	0	0	{"input": "five", "reference": "4", "evaluation_metric": "fuzzy_match"}	2026-11-26 14:43:36.812734+00	0	0	0	0	0	\N	\N
res_01a2184fdcecd705098635b077d6	evalrun_01a2184fdcb70758a19b1310940c	2	2	0	exact-86b0e083-31e9-41ca-b664-5101fcdbab24	string_check	0	f	1	not true that input equals reference	\N	0	0	0	{"input": "blue", "operation": "eq", "reference": "Blue"}	2026-11-26 14:43:36.812918+00	0	0	0	0	0	\N	\N
res_01a2184fdd232f990cf843e0f1c3	evalrun_01a2184fdcb70758a19b1310940c	0	0	2	judge-77f932b8-81f9-4f31-9a5b-f11cd714adb1	label_model	1	t	1	compared with the reference	\N	1	10	5	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "label": "correct", "media": [{"sent": {"bytes": 78, "width": 16, "format": "png", "height": 12}, "field": "input[0]", "sha256": "6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b", "source": "data_url", "changes": [], "original": {"bytes": 78, "width": 16, "format": "png", "height": 12}}], "model": "judge-model", "steps": [{"conclusion": "compared with the reference", "description": "compare"}], "judge_json": {"label": {"steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": "correct"}}, "cached_calls": 0, "grader_sample": {"input": [{"role": "system", "content": "LABEL-GRADER: label the answer."}, {"role": "user", "content": "Answer: Paris\\n<image_url>"}], "model": "judge-model", "usage": {"total_tokens": 15, "cached_tokens": 0, "prompt_tokens": 10, "completion_tokens": 5}, "output": [{"role": "assistant", "content": "{\\"steps\\": [{\\"description\\": \\"compare\\", \\"conclusion\\": \\"compared with the reference\\"}], \\"result\\": \\"correct\\"}"}]}, "passing_labels": ["correct"]}	2026-11-26 14:43:36.867816+00	6e-05	0	0	0	0	judge-model	\N
res_01a2184fdd2463d6104590dcebe8	evalrun_01a2184fdcb70758a19b1310940c	0	0	3	quality-a5c086bc-4a5a-4033-a347-be522410dbfa	score_model	9	t	5	compared with the reference	\N	1	10	5	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "model": "judge-model", "range": [0.0, 10.0], "steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": 9.0, "judge_json": {"score": {"steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": 9.0}}, "cached_calls": 0, "grader_sample": {"input": [{"role": "system", "content": "SCORE-GRADER"}, {"role": "user", "content": "Answer: Paris"}], "model": "judge-model", "usage": {"total_tokens": 15, "cached_tokens": 0, "prompt_tokens": 10, "completion_tokens": 5}, "output": [{"role": "assistant", "content": "{\\"steps\\": [{\\"description\\": \\"compare\\", \\"conclusion\\": \\"compared with the reference\\"}], \\"result\\": 9}"}]}, "pass_threshold": 5.0}	2026-11-26 14:43:36.868067+00	6e-05	0	0	0	0	judge-model	\N
res_01a2184fdd3a030e6f1d9fec5d95	evalrun_01a2184fdcb70758a19b1310940c	1	1	2	judge-77f932b8-81f9-4f31-9a5b-f11cd714adb1	label_model	0	f	1	compared with the reference	\N	1	10	5	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "label": "incorrect", "media": [{"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "field": "input[0]", "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}], "model": "judge-model", "steps": [{"conclusion": "compared with the reference", "description": "compare"}], "judge_json": {"label": {"steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": "incorrect"}}, "cached_calls": 0, "grader_sample": {"input": [{"role": "system", "content": "LABEL-GRADER: label the answer."}, {"role": "user", "content": "Answer: five\\n<image_url>"}], "model": "judge-model", "usage": {"total_tokens": 15, "cached_tokens": 0, "prompt_tokens": 10, "completion_tokens": 5}, "output": [{"role": "assistant", "content": "{\\"steps\\": [{\\"description\\": \\"compare\\", \\"conclusion\\": \\"compared with the reference\\"}], \\"result\\": \\"incorrect\\"}"}]}, "passing_labels": ["correct"]}	2026-11-26 14:43:36.890879+00	6e-05	0	0	0	0	judge-model	\N
res_01a2184fdd4ae99aaf722bd0fb03	evalrun_01a2184fdcb70758a19b1310940c	2	2	2	judge-77f932b8-81f9-4f31-9a5b-f11cd714adb1	label_model	0	f	1	compared with the reference	\N	1	10	5	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "label": "incorrect", "media": [{"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "field": "input[0]", "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}], "model": "judge-model", "steps": [{"conclusion": "compared with the reference", "description": "compare"}], "judge_json": {"label": {"steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": "incorrect"}}, "cached_calls": 0, "grader_sample": {"input": [{"role": "system", "content": "LABEL-GRADER: label the answer."}, {"role": "user", "content": "Answer: blue\\n<image_url>"}], "model": "judge-model", "usage": {"total_tokens": 15, "cached_tokens": 0, "prompt_tokens": 10, "completion_tokens": 5}, "output": [{"role": "assistant", "content": "{\\"steps\\": [{\\"description\\": \\"compare\\", \\"conclusion\\": \\"compared with the reference\\"}], \\"result\\": \\"incorrect\\"}"}]}, "passing_labels": ["correct"]}	2026-11-26 14:43:36.90671+00	6e-05	0	0	0	0	judge-model	\N
res_01a2184fdd4ba264b930363a0f09	evalrun_01a2184fdcb70758a19b1310940c	1	1	3	quality-a5c086bc-4a5a-4033-a347-be522410dbfa	score_model	2	f	5	compared with the reference	\N	1	10	5	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "model": "judge-model", "range": [0.0, 10.0], "steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": 2.0, "judge_json": {"score": {"steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": 2.0}}, "cached_calls": 0, "grader_sample": {"input": [{"role": "system", "content": "SCORE-GRADER"}, {"role": "user", "content": "Answer: five"}], "model": "judge-model", "usage": {"total_tokens": 15, "cached_tokens": 0, "prompt_tokens": 10, "completion_tokens": 5}, "output": [{"role": "assistant", "content": "{\\"steps\\": [{\\"description\\": \\"compare\\", \\"conclusion\\": \\"compared with the reference\\"}], \\"result\\": 2}"}]}, "pass_threshold": 5.0}	2026-11-26 14:43:36.907233+00	6e-05	0	0	0	0	judge-model	\N
res_01a2184fdfea7aa4754a9c7178a1	evalrun_01a2184fdf74fa9642c0d11cced3	0	0	0	exact-86b0e083-31e9-41ca-b664-5101fcdbab24	string_check	1	t	1	input equals reference	\N	0	0	0	{"input": "Paris", "operation": "eq", "reference": "Paris"}	2026-11-26 14:43:37.578733+00	0	0	0	0	0	\N	\N
res_01a2184fdd5af30cc713cf69e3bb	evalrun_01a2184fdcb70758a19b1310940c	2	2	3	quality-a5c086bc-4a5a-4033-a347-be522410dbfa	score_model	2	f	5	compared with the reference	\N	1	10	5	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "model": "judge-model", "range": [0.0, 10.0], "steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": 2.0, "judge_json": {"score": {"steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": 2.0}}, "cached_calls": 0, "grader_sample": {"input": [{"role": "system", "content": "SCORE-GRADER"}, {"role": "user", "content": "Answer: blue"}], "model": "judge-model", "usage": {"total_tokens": 15, "cached_tokens": 0, "prompt_tokens": 10, "completion_tokens": 5}, "output": [{"role": "assistant", "content": "{\\"steps\\": [{\\"description\\": \\"compare\\", \\"conclusion\\": \\"compared with the reference\\"}], \\"result\\": 2}"}]}, "pass_threshold": 5.0}	2026-11-26 14:43:36.922896+00	6e-05	0	0	0	0	judge-model	\N
res_01a2184fdfeaea8ef7442cb08faa	evalrun_01a2184fdf74fa9642c0d11cced3	0	0	1	fuzzy-c9883c5b-5515-49bd-a1c2-be3d194861a0	text_similarity	1	t	0.8	fuzzy_match is 1.0000 >= pass_threshold 0.8	\N	0	0	0	{"input": "Paris", "reference": "Paris", "evaluation_metric": "fuzzy_match"}	2026-11-26 14:43:37.578981+00	0	0	0	0	0	\N	\N
res_01a2184fdfeb657e12ca7c089718	evalrun_01a2184fdf74fa9642c0d11cced3	1	1	0	exact-86b0e083-31e9-41ca-b664-5101fcdbab24	string_check	0	f	1	not true that input equals reference	\N	0	0	0	{"input": "five", "operation": "eq", "reference": "4"}	2026-11-26 14:43:37.579476+00	0	0	0	0	0	\N	\N
res_01a2184fdfeb3fdb72975d7aabf7	evalrun_01a2184fdf74fa9642c0d11cced3	1	1	1	fuzzy-c9883c5b-5515-49bd-a1c2-be3d194861a0	text_similarity	0	f	0.8	fuzzy_match is 0.0000 < pass_threshold 0.8	\N	0	0	0	{"input": "five", "reference": "4", "evaluation_metric": "fuzzy_match"}	2026-11-26 14:43:37.579544+00	0	0	0	0	0	\N	\N
res_01a2184fdfebadb581844d7a511f	evalrun_01a2184fdf74fa9642c0d11cced3	2	2	0	exact-86b0e083-31e9-41ca-b664-5101fcdbab24	string_check	0	f	1	not true that input equals reference	\N	0	0	0	{"input": "blue", "operation": "eq", "reference": "Blue"}	2026-11-26 14:43:37.579776+00	0	0	0	0	0	\N	\N
res_01a2184fdfeb064511075cea966a	evalrun_01a2184fdf74fa9642c0d11cced3	2	2	1	fuzzy-c9883c5b-5515-49bd-a1c2-be3d194861a0	text_similarity	1	t	0.8	fuzzy_match is 1.0000 >= pass_threshold 0.8	\N	0	0	0	{"input": "blue", "reference": "Blue", "evaluation_metric": "fuzzy_match"}	2026-11-26 14:43:37.57982+00	0	0	0	0	0	\N	\N
res_01a2184fdfee05e86d51159e3169	evalrun_01a2184fdf74fa9642c0d11cced3	0	0	2	judge-77f932b8-81f9-4f31-9a5b-f11cd714adb1	label_model	1	t	1	compared with the reference	\N	0	0	0	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "label": "correct", "media": [{"sent": {"bytes": 78, "width": 16, "format": "png", "height": 12}, "field": "input[0]", "sha256": "6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b", "source": "data_url", "changes": [], "original": {"bytes": 78, "width": 16, "format": "png", "height": 12}}], "model": "judge-model", "steps": [{"conclusion": "compared with the reference", "description": "compare"}], "judge_json": {"label": {"steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": "correct"}}, "cached_calls": 1, "grader_sample": {"input": [{"role": "system", "content": "LABEL-GRADER: label the answer."}, {"role": "user", "content": "Answer: Paris\\n<image_url>"}], "model": "judge-model", "usage": {"total_tokens": 0, "cached_tokens": 0, "prompt_tokens": 0, "completion_tokens": 0}, "output": [{"role": "assistant", "content": "{\\"steps\\": [{\\"description\\": \\"compare\\", \\"conclusion\\": \\"compared with the reference\\"}], \\"result\\": \\"correct\\"}"}]}, "passing_labels": ["correct"]}	2026-11-26 14:43:37.586493+00	0	0	0	0	0	\N	\N
res_01a2184fdff29b98e1ee13fb0a44	evalrun_01a2184fdf74fa9642c0d11cced3	0	0	3	quality-a5c086bc-4a5a-4033-a347-be522410dbfa	score_model	9	t	5	compared with the reference	\N	0	0	0	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "model": "judge-model", "range": [0.0, 10.0], "steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": 9.0, "judge_json": {"score": {"steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": 9.0}}, "cached_calls": 1, "grader_sample": {"input": [{"role": "system", "content": "SCORE-GRADER"}, {"role": "user", "content": "Answer: Paris"}], "model": "judge-model", "usage": {"total_tokens": 0, "cached_tokens": 0, "prompt_tokens": 0, "completion_tokens": 0}, "output": [{"role": "assistant", "content": "{\\"steps\\": [{\\"description\\": \\"compare\\", \\"conclusion\\": \\"compared with the reference\\"}], \\"result\\": 9}"}]}, "pass_threshold": 5.0}	2026-11-26 14:43:37.586809+00	0	0	0	0	0	\N	\N
res_01a2184fdff2d78bafe707104aab	evalrun_01a2184fdf74fa9642c0d11cced3	1	1	2	judge-77f932b8-81f9-4f31-9a5b-f11cd714adb1	label_model	0	f	1	compared with the reference	\N	0	0	0	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "label": "incorrect", "media": [{"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "field": "input[0]", "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}], "model": "judge-model", "steps": [{"conclusion": "compared with the reference", "description": "compare"}], "judge_json": {"label": {"steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": "incorrect"}}, "cached_calls": 1, "grader_sample": {"input": [{"role": "system", "content": "LABEL-GRADER: label the answer."}, {"role": "user", "content": "Answer: five\\n<image_url>"}], "model": "judge-model", "usage": {"total_tokens": 0, "cached_tokens": 0, "prompt_tokens": 0, "completion_tokens": 0}, "output": [{"role": "assistant", "content": "{\\"steps\\": [{\\"description\\": \\"compare\\", \\"conclusion\\": \\"compared with the reference\\"}], \\"result\\": \\"incorrect\\"}"}]}, "passing_labels": ["correct"]}	2026-11-26 14:43:37.586936+00	0	0	0	0	0	\N	\N
res_01a2184fdff34473b0d9cf0c9c93	evalrun_01a2184fdf74fa9642c0d11cced3	1	1	3	quality-a5c086bc-4a5a-4033-a347-be522410dbfa	score_model	2	f	5	compared with the reference	\N	0	0	0	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "model": "judge-model", "range": [0.0, 10.0], "steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": 2.0, "judge_json": {"score": {"steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": 2.0}}, "cached_calls": 1, "grader_sample": {"input": [{"role": "system", "content": "SCORE-GRADER"}, {"role": "user", "content": "Answer: five"}], "model": "judge-model", "usage": {"total_tokens": 0, "cached_tokens": 0, "prompt_tokens": 0, "completion_tokens": 0}, "output": [{"role": "assistant", "content": "{\\"steps\\": [{\\"description\\": \\"compare\\", \\"conclusion\\": \\"compared with the reference\\"}], \\"result\\": 2}"}]}, "pass_threshold": 5.0}	2026-11-26 14:43:37.58704+00	0	0	0	0	0	\N	\N
res_01a2184fdff3683f162283f10599	evalrun_01a2184fdf74fa9642c0d11cced3	2	2	2	judge-77f932b8-81f9-4f31-9a5b-f11cd714adb1	label_model	0	f	1	compared with the reference	\N	0	0	0	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "label": "incorrect", "media": [{"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "field": "input[0]", "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}], "model": "judge-model", "steps": [{"conclusion": "compared with the reference", "description": "compare"}], "judge_json": {"label": {"steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": "incorrect"}}, "cached_calls": 1, "grader_sample": {"input": [{"role": "system", "content": "LABEL-GRADER: label the answer."}, {"role": "user", "content": "Answer: blue\\n<image_url>"}], "model": "judge-model", "usage": {"total_tokens": 0, "cached_tokens": 0, "prompt_tokens": 0, "completion_tokens": 0}, "output": [{"role": "assistant", "content": "{\\"steps\\": [{\\"description\\": \\"compare\\", \\"conclusion\\": \\"compared with the reference\\"}], \\"result\\": \\"incorrect\\"}"}]}, "passing_labels": ["correct"]}	2026-11-26 14:43:37.587134+00	0	0	0	0	0	\N	\N
res_01a2184fdff3b34982dbfb37a3f4	evalrun_01a2184fdf74fa9642c0d11cced3	2	2	3	quality-a5c086bc-4a5a-4033-a347-be522410dbfa	score_model	2	f	5	compared with the reference	\N	0	0	0	{"judge": {"host": "127.0.0.1:44695", "model": "judge-model", "model_id": null}, "model": "judge-model", "range": [0.0, 10.0], "steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": 2.0, "judge_json": {"score": {"steps": [{"conclusion": "compared with the reference", "description": "compare"}], "result": 2.0}}, "cached_calls": 1, "grader_sample": {"input": [{"role": "system", "content": "SCORE-GRADER"}, {"role": "user", "content": "Answer: blue"}], "model": "judge-model", "usage": {"total_tokens": 0, "cached_tokens": 0, "prompt_tokens": 0, "completion_tokens": 0}, "output": [{"role": "assistant", "content": "{\\"steps\\": [{\\"description\\": \\"compare\\", \\"conclusion\\": \\"compared with the reference\\"}], \\"result\\": 2}"}]}, "pass_threshold": 5.0}	2026-11-26 14:43:37.587223+00	0	0	0	0	0	\N	\N
\.


--
-- Data for Name: run; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.run (id, tenant_id, dataset_id, model_id, options) FROM stdin;
run_01a2184fd61a8b23e5f9af3efa17	ten_01a2184fb3d87a43f0380fed096a	ds_01a2184fd582bc77c43be6b01868	model_01a2184fd60697e6eafb5224a420	{"judge": {"model": null, "model_id": null, "strategy": "rule"}, "limit": null, "subsets": ["example_vqa"], "generation": {}, "uses_model": true, "metric_keys": []}
\.


--
-- Data for Name: run_score; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.run_score (run_id, key, subset, total, num, total_sq, passed, failed) FROM stdin;
run_01a2184fd61a8b23e5f9af3efa17	Rouge-1-F	example_vqa	2.7999999852000004	5	2.63999997232	0	0
run_01a2184fd61a8b23e5f9af3efa17	Rouge-1-P	example_vqa	2.6666666666666665	5	2.4444444444444446	0	0
run_01a2184fd61a8b23e5f9af3efa17	Rouge-1-R	example_vqa	3	5	3	0	0
run_01a2184fd61a8b23e5f9af3efa17	Rouge-2-F	example_vqa	0.999999995	5	0.9999999900000001	0	0
run_01a2184fd61a8b23e5f9af3efa17	Rouge-2-P	example_vqa	1	5	1	0	0
run_01a2184fd61a8b23e5f9af3efa17	Rouge-2-R	example_vqa	1	5	1	0	0
run_01a2184fd61a8b23e5f9af3efa17	Rouge-L-F	example_vqa	2.7999999852000004	5	2.63999997232	0	0
run_01a2184fd61a8b23e5f9af3efa17	Rouge-L-P	example_vqa	2.6666666666666665	5	2.4444444444444446	0	0
run_01a2184fd61a8b23e5f9af3efa17	Rouge-L-R	example_vqa	3	5	3	0	0
run_01a2184fd61a8b23e5f9af3efa17	bleu-1	example_vqa	2.6666666666666665	5	2.4444444444444446	0	0
run_01a2184fd61a8b23e5f9af3efa17	bleu-2	example_vqa	1	5	1	0	0
run_01a2184fd61a8b23e5f9af3efa17	bleu-3	example_vqa	1	5	1	0	0
run_01a2184fd61a8b23e5f9af3efa17	bleu-4	example_vqa	1	5	1	0	0
\.


--
-- Data for Name: signed_out_session; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.signed_out_session (nonce, expires_at) FROM stdin;
\.


--
-- Data for Name: tenant; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.tenant (id, name, created_at, max_active_evaluations, daily_usd, storage_bytes) FROM stdin;
ten_01a2184fb3d87a43f0380fed096a	upgrade-fixture	2026-11-26 14:43:26.296737+00	\N	\N	\N
ten_01a2184fb3e7204064910497a645	upgrade-other	2026-11-26 14:43:26.311709+00	\N	\N	\N
\.


--
-- Data for Name: test_case; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.test_case (id, evaluation_id, index, client_id, input, actual_output, expected_output, context, retrieval_context, metadata, messages, context_hash) FROM stdin;
1	eval_01a2184fb4d0a60c6d6783f0fa2d	0	case-0	["What shape is shown?", {"blob": {"sent": {"bytes": 78, "width": 16, "format": "png", "height": 12}, "sha256": "6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b", "source": "data_url", "changes": [], "original": {"bytes": 78, "width": 16, "format": "png", "height": 12}}, "type": "image_url", "image_url": {"url": "blob:sha256:6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b"}}]	"A red circle, number 0."	"A red circle."	\N	["Doc 0: the logo is a red circle.", [{"blob": {"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}, "type": "image_url", "image_url": {"url": "blob:sha256:62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14"}}]]	\N	\N	bdb2874826ea435c775e4e354e6c12b81ce2d9bbb5887ff4ea176055c698fb8c
2	eval_01a2184fb4d0a60c6d6783f0fa2d	1	case-1	["What shape is shown?", {"blob": {"sent": {"bytes": 78, "width": 16, "format": "png", "height": 12}, "sha256": "6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b", "source": "data_url", "changes": [], "original": {"bytes": 78, "width": 16, "format": "png", "height": 12}}, "type": "image_url", "image_url": {"url": "blob:sha256:6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b"}}]	"A red circle, number 1."	"A red circle."	\N	["Doc 1: the logo is a red circle.", [{"blob": {"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}, "type": "image_url", "image_url": {"url": "blob:sha256:62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14"}}]]	\N	\N	da2dbd5b16cb71bf7824bc460a6beabf51e679adfb7391a0476e898edf81f241
3	eval_01a2184fb4d0a60c6d6783f0fa2d	2	case-2	["What shape is shown?", {"blob": {"sent": {"bytes": 78, "width": 16, "format": "png", "height": 12}, "sha256": "6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b", "source": "data_url", "changes": [], "original": {"bytes": 78, "width": 16, "format": "png", "height": 12}}, "type": "image_url", "image_url": {"url": "blob:sha256:6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b"}}]	"A red circle, number 2."	"A red circle."	\N	["Doc 2: the logo is a red circle.", [{"blob": {"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}, "type": "image_url", "image_url": {"url": "blob:sha256:62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14"}}]]	\N	\N	f04a9e1d8ca0dc34310ddcc62c25cad0399dff53626da9675b588c480ebd3c71
4	eval_01a2184fb51331a2a31d690475ea	0	case-0	"Repeat sentence 0."	"the cat sat on mat 0"	"the cat sat on mat 0"	\N	\N	\N	\N	\N
5	eval_01a2184fb51331a2a31d690475ea	1	case-1	"Repeat sentence 1."	"the cat sat on mat 1"	"the cat sat on mat 1"	\N	\N	\N	\N	\N
6	eval_01a2184fb51331a2a31d690475ea	2	case-2	"Repeat sentence 2."	"the cat sat on mat 2"	"the cat sat on mat 2"	\N	\N	\N	\N	\N
7	eval_01a2184fb51331a2a31d690475ea	3	case-3	"Repeat sentence 3."	"the cat sat on mat 3"	"the cat sat on mat 3"	\N	\N	\N	\N	\N
8	eval_01a2184fb51331a2a31d690475ea	4	case-4	"Repeat sentence 4."	"the cat sat on mat 4"	"the cat sat on mat 4"	\N	\N	\N	\N	\N
9	eval_01a2184fb51331a2a31d690475ea	5	case-5	"Repeat sentence 5."	"the cat sat on mat 5"	"the cat sat on mat 5"	\N	\N	\N	\N	\N
10	eval_01a2184fb51331a2a31d690475ea	6	case-6	"Repeat sentence 6."	"the cat sat on mat 6"	"the cat sat on mat 6"	\N	\N	\N	\N	\N
11	eval_01a2184fb51331a2a31d690475ea	7	case-7	"Repeat sentence 7."	"the cat sat on mat 7"	"the cat sat on mat 7"	\N	\N	\N	\N	\N
12	eval_01a2184fb51331a2a31d690475ea	8	case-8	"Repeat sentence 8."	"the cat sat on mat 8"	"the cat sat on mat 8"	\N	\N	\N	\N	\N
13	eval_01a2184fb51331a2a31d690475ea	9	case-9	"Repeat sentence 9."	"the cat sat on mat 9"	"the cat sat on mat 9"	\N	\N	\N	\N	\N
14	eval_01a2184fb51331a2a31d690475ea	10	case-10	"Repeat sentence 10."	"the cat sat on mat 10"	"the cat sat on mat 10"	\N	\N	\N	\N	\N
15	eval_01a2184fb51331a2a31d690475ea	11	case-11	"Repeat sentence 11."	"the cat sat on mat 11"	"the cat sat on mat 11"	\N	\N	\N	\N	\N
16	eval_01a2184fb5257a9f529447b6d531	0	case-0	"Repeat sentence 0."	"a dog ran away"	"the cat sat on mat 0"	\N	\N	\N	\N	\N
17	eval_01a2184fb5257a9f529447b6d531	1	case-1	"Repeat sentence 1."	"a dog ran away"	"the cat sat on mat 1"	\N	\N	\N	\N	\N
18	eval_01a2184fb5257a9f529447b6d531	2	case-2	"Repeat sentence 2."	"a dog ran away"	"the cat sat on mat 2"	\N	\N	\N	\N	\N
19	eval_01a2184fb5257a9f529447b6d531	3	case-3	"Repeat sentence 3."	"a dog ran away"	"the cat sat on mat 3"	\N	\N	\N	\N	\N
20	eval_01a2184fb5257a9f529447b6d531	4	case-4	"Repeat sentence 4."	"the cat sat on mat 4"	"the cat sat on mat 4"	\N	\N	\N	\N	\N
21	eval_01a2184fb5257a9f529447b6d531	5	case-5	"Repeat sentence 5."	"the cat sat on mat 5"	"the cat sat on mat 5"	\N	\N	\N	\N	\N
22	eval_01a2184fb5257a9f529447b6d531	6	case-6	"Repeat sentence 6."	"the cat sat on mat 6"	"the cat sat on mat 6"	\N	\N	\N	\N	\N
23	eval_01a2184fb5257a9f529447b6d531	7	case-7	"Repeat sentence 7."	"the cat sat on mat 7"	"the cat sat on mat 7"	\N	\N	\N	\N	\N
24	eval_01a2184fb5257a9f529447b6d531	8	case-8	"Repeat sentence 8."	"the cat sat on mat 8"	"the cat sat on mat 8"	\N	\N	\N	\N	\N
25	eval_01a2184fb5257a9f529447b6d531	9	case-9	"Repeat sentence 9."	"the cat sat on mat 9"	"the cat sat on mat 9"	\N	\N	\N	\N	\N
26	eval_01a2184fb5257a9f529447b6d531	10	case-10	"Repeat sentence 10."	"the cat sat on mat 10"	"the cat sat on mat 10"	\N	\N	\N	\N	\N
27	eval_01a2184fb5257a9f529447b6d531	11	case-11	"Repeat sentence 11."	"the cat sat on mat 11"	"the cat sat on mat 11"	\N	\N	\N	\N	\N
28	run_01a2184fd61a8b23e5f9af3efa17	0	example_vqa/0	[{"text": "**User**:", "type": "text"}, {"text": "What shape is drawn in white?", "type": "text"}, {"blob": {"sent": {"bytes": 172, "width": 32, "format": "png", "height": 32}, "sha256": "b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8", "source": "data_url", "changes": [], "original": {"bytes": 172, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8"}}]	"A white circle"	"A circle"	\N	\N	{"line": 1, "subset": "example_vqa", "row_index": 0}	[{"role": "user", "content": [{"text": "What shape is drawn in white?", "type": "text"}, {"blob": {"sent": {"bytes": 172, "width": 32, "format": "png", "height": 32}, "sha256": "b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8", "source": "data_url", "changes": [], "original": {"bytes": 172, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8"}}]}]	\N
29	run_01a2184fd61a8b23e5f9af3efa17	1	example_vqa/1	[{"text": "**User**:", "type": "text"}, {"text": "What is the background colour of this image?", "type": "text"}, {"blob": {"sent": {"bytes": 172, "width": 32, "format": "png", "height": 32}, "sha256": "b14888c01b793a3ff2b7ef5d0212fe93f5f085dd7ab1c09fa6e09389d64fee35", "source": "data_url", "changes": [], "original": {"bytes": 172, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:b14888c01b793a3ff2b7ef5d0212fe93f5f085dd7ab1c09fa6e09389d64fee35"}}]	"Green"	"Green"	\N	\N	{"line": 2, "subset": "example_vqa", "row_index": 1}	[{"role": "user", "content": [{"text": "What is the background colour of this image?", "type": "text"}, {"blob": {"sent": {"bytes": 172, "width": 32, "format": "png", "height": 32}, "sha256": "b14888c01b793a3ff2b7ef5d0212fe93f5f085dd7ab1c09fa6e09389d64fee35", "source": "data_url", "changes": [], "original": {"bytes": 172, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:b14888c01b793a3ff2b7ef5d0212fe93f5f085dd7ab1c09fa6e09389d64fee35"}}]}]	\N
30	run_01a2184fd61a8b23e5f9af3efa17	2	example_vqa/2	[{"text": "**System**: You are a concise visual assistant. Answer in one short sentence.", "type": "text"}, {"text": "**User**:", "type": "text"}, {"text": "Compare the first image", "type": "text"}, {"blob": {"sent": {"bytes": 116, "width": 32, "format": "png", "height": 32}, "sha256": "c4ac1ed857ead7ea4b6f5cd8fa524ee2c66c02feedf5bd670decb0c7757f23e6", "source": "data_url", "changes": [], "original": {"bytes": 116, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:c4ac1ed857ead7ea4b6f5cd8fa524ee2c66c02feedf5bd670decb0c7757f23e6", "detail": "low"}}, {"text": "with the second image", "type": "text"}, {"blob": {"sent": {"bytes": 97, "width": 32, "format": "png", "height": 32}, "sha256": "41958b3ff5f946024d5d42aec226ce5bb89b3c1c40ced3e073c5d47d7e8b89d4", "source": "data_url", "changes": [], "original": {"bytes": 97, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:41958b3ff5f946024d5d42aec226ce5bb89b3c1c40ced3e073c5d47d7e8b89d4"}}, {"text": "Which one contains a shape?", "type": "text"}]	"The first image contains a white square."	"The first image contains a white square."	\N	\N	{"line": 3, "subset": "example_vqa", "row_index": 2}	[{"role": "system", "content": "You are a concise visual assistant. Answer in one short sentence."}, {"role": "user", "content": [{"text": "Compare the first image", "type": "text"}, {"blob": {"sent": {"bytes": 116, "width": 32, "format": "png", "height": 32}, "sha256": "c4ac1ed857ead7ea4b6f5cd8fa524ee2c66c02feedf5bd670decb0c7757f23e6", "source": "data_url", "changes": [], "original": {"bytes": 116, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:c4ac1ed857ead7ea4b6f5cd8fa524ee2c66c02feedf5bd670decb0c7757f23e6", "detail": "low"}}, {"text": "with the second image", "type": "text"}, {"blob": {"sent": {"bytes": 97, "width": 32, "format": "png", "height": 32}, "sha256": "41958b3ff5f946024d5d42aec226ce5bb89b3c1c40ced3e073c5d47d7e8b89d4", "source": "data_url", "changes": [], "original": {"bytes": 97, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:41958b3ff5f946024d5d42aec226ce5bb89b3c1c40ced3e073c5d47d7e8b89d4"}}, {"text": "Which one contains a shape?", "type": "text"}]}]	\N
31	run_01a2184fd61a8b23e5f9af3efa17	3	example_vqa/3	[{"text": "**User**:", "type": "text"}, {"text": "Is the audio clip a pure tone? Also name the colour of the image.", "type": "text"}, {"text": "[an audio clip]", "type": "text"}, {"blob": {"sent": {"bytes": 172, "width": 32, "format": "png", "height": 32}, "sha256": "b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8", "source": "data_url", "changes": [], "original": {"bytes": 172, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8"}}]	"I do not know"	"Yes, a pure tone; the image is red."	\N	\N	{"line": 4, "subset": "example_vqa", "row_index": 3}	[{"role": "user", "content": [{"text": "Is the audio clip a pure tone? Also name the colour of the image.", "type": "text"}, {"type": "input_audio", "input_audio": {"data": "blob:sha256:8f70a2eed10865d07de5779de0d8475e36a625a08b9fb5caca251d685eca189f", "format": "wav"}}, {"blob": {"sent": {"bytes": 172, "width": 32, "format": "png", "height": 32}, "sha256": "b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8", "source": "data_url", "changes": [], "original": {"bytes": 172, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:b9f17046ca285ea3a253931a9e13b4cf3242022a2d35fd39e5990eabcdb934b8"}}]}]	\N
32	run_01a2184fd61a8b23e5f9af3efa17	4	example_vqa/4	[{"text": "**User**:", "type": "text"}, {"blob": {"sent": {"bytes": 176, "width": 32, "format": "png", "height": 32}, "sha256": "ea86b4bab2813a92a6df39df2242e44db1ac7e625851954d067a794223bb9f99", "source": "data_url", "changes": [], "original": {"bytes": 176, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:ea86b4bab2813a92a6df39df2242e44db1ac7e625851954d067a794223bb9f99"}}, {"text": " 图中的白色图形是什么形状？", "type": "text"}]	"I do not know"	"圆形"	\N	\N	{"line": 5, "subset": "example_vqa", "row_index": 4}	[{"role": "user", "content": [{"blob": {"sent": {"bytes": 176, "width": 32, "format": "png", "height": 32}, "sha256": "ea86b4bab2813a92a6df39df2242e44db1ac7e625851954d067a794223bb9f99", "source": "data_url", "changes": [], "original": {"bytes": 176, "width": 32, "format": "png", "height": 32}}, "type": "image_url", "image_url": {"url": "blob:sha256:ea86b4bab2813a92a6df39df2242e44db1ac7e625851954d067a794223bb9f99"}}, {"text": " 图中的白色图形是什么形状？", "type": "text"}]}]	\N
33	evalrun_01a2184fdcb70758a19b1310940c	0	0	[{"blob": {"sent": {"bytes": 78, "width": 16, "format": "png", "height": 12}, "sha256": "6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b", "source": "data_url", "changes": [], "original": {"bytes": 78, "width": 16, "format": "png", "height": 12}}, "type": "image_url", "image_url": {"url": "blob:sha256:6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b"}}]	"Paris"	\N	\N	\N	{"item": {"image": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAAFUlEQVR4nGP8z0AaYCJR/aiGEaMBAGavARexRZOyAAAAAElFTkSuQmCC", "answer": "Paris", "question": "Capital of France?"}, "sample": {"output_text": "Paris"}, "image_urls": ["data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAAFUlEQVR4nGP8z0AaYCJR/aiGEaMBAGavARexRZOyAAAAAElFTkSuQmCC"]}	\N	\N
34	evalrun_01a2184fdcb70758a19b1310940c	1	1	[{"blob": {"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}, "type": "image_url", "image_url": {"url": "blob:sha256:62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14"}}]	"five"	\N	\N	\N	{"item": {"image": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAwAAAAQCAIAAACtAwlQAAAAG0lEQVR4nGNkYPjPQAgwEVQxqmhUEQMDAwMDAHIhAR8gFxlHAAAAAElFTkSuQmCC", "answer": "4", "question": "Two plus two?"}, "sample": {"output_text": "five"}, "image_urls": ["data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAwAAAAQCAIAAACtAwlQAAAAG0lEQVR4nGNkYPjPQAgwEVQxqmhUEQMDAwMDAHIhAR8gFxlHAAAAAElFTkSuQmCC"]}	\N	\N
35	evalrun_01a2184fdcb70758a19b1310940c	2	2	[{"blob": {"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}, "type": "image_url", "image_url": {"url": "blob:sha256:62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14"}}]	"blue"	\N	\N	\N	{"item": {"image": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAwAAAAQCAIAAACtAwlQAAAAG0lEQVR4nGNkYPjPQAgwEVQxqmhUEQMDAwMDAHIhAR8gFxlHAAAAAElFTkSuQmCC", "answer": "Blue", "question": "Sky colour?"}, "sample": {"output_text": "blue"}, "image_urls": ["data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAwAAAAQCAIAAACtAwlQAAAAG0lEQVR4nGNkYPjPQAgwEVQxqmhUEQMDAwMDAHIhAR8gFxlHAAAAAElFTkSuQmCC"]}	\N	\N
36	evalrun_01a2184fdf74fa9642c0d11cced3	0	0	[{"blob": {"sent": {"bytes": 78, "width": 16, "format": "png", "height": 12}, "sha256": "6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b", "source": "data_url", "changes": [], "original": {"bytes": 78, "width": 16, "format": "png", "height": 12}}, "type": "image_url", "image_url": {"url": "blob:sha256:6d3bbdfab208225411628a64b5a05a7ba4caffddcec25c1581440fa2dc8a870b"}}]	"Paris"	\N	\N	\N	{"item": {"image": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAAFUlEQVR4nGP8z0AaYCJR/aiGEaMBAGavARexRZOyAAAAAElFTkSuQmCC", "answer": "Paris", "question": "Capital of France?"}, "sample": {"output_text": "Paris"}, "image_urls": ["data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAAFUlEQVR4nGP8z0AaYCJR/aiGEaMBAGavARexRZOyAAAAAElFTkSuQmCC"]}	\N	\N
37	evalrun_01a2184fdf74fa9642c0d11cced3	1	1	[{"blob": {"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}, "type": "image_url", "image_url": {"url": "blob:sha256:62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14"}}]	"five"	\N	\N	\N	{"item": {"image": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAwAAAAQCAIAAACtAwlQAAAAG0lEQVR4nGNkYPjPQAgwEVQxqmhUEQMDAwMDAHIhAR8gFxlHAAAAAElFTkSuQmCC", "answer": "4", "question": "Two plus two?"}, "sample": {"output_text": "five"}, "image_urls": ["data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAwAAAAQCAIAAACtAwlQAAAAG0lEQVR4nGNkYPjPQAgwEVQxqmhUEQMDAwMDAHIhAR8gFxlHAAAAAElFTkSuQmCC"]}	\N	\N
38	evalrun_01a2184fdf74fa9642c0d11cced3	2	2	[{"blob": {"sent": {"bytes": 84, "width": 12, "format": "png", "height": 16}, "sha256": "62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14", "source": "data_url", "changes": [], "original": {"bytes": 84, "width": 12, "format": "png", "height": 16}}, "type": "image_url", "image_url": {"url": "blob:sha256:62ac1e2dae1b300c25fe1e72868893e52b73223e46567536171cd644af7dce14"}}]	"blue"	\N	\N	\N	{"item": {"image": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAwAAAAQCAIAAACtAwlQAAAAG0lEQVR4nGNkYPjPQAgwEVQxqmhUEQMDAwMDAHIhAR8gFxlHAAAAAElFTkSuQmCC", "answer": "Blue", "question": "Sky colour?"}, "sample": {"output_text": "blue"}, "image_urls": ["data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAwAAAAQCAIAAACtAwlQAAAAG0lEQVR4nGNkYPjPQAgwEVQxqmhUEQMDAwMDAHIhAR8gFxlHAAAAAElFTkSuQmCC"]}	\N	\N
\.


--
-- Data for Name: webhook_delivery; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.webhook_delivery (id, event_id, endpoint_id, attempt, succeeded, status_code, response_body, error, duration_ms, attempted_at) FROM stdin;
whd_01a2184fb658f103dfdb24be62e4	msg_01a2184fb5c5acb7587a542be7a3	we_01a2184fb4bf644e1182e0adb751	1	f	500	scripted 500	\N	60	2026-11-26 14:43:26.937234+00
whd_01a2184fb6f794a06942371b384d	msg_01a2184fb61143326d823b19dbe1	we_01a2184fb4bf644e1182e0adb751	1	t	200	scripted 200	\N	65	2026-11-26 14:43:27.095893+00
whd_01a2184fb76d4056a3ce9904b5a9	msg_01a2184fb6a9bbc3eddba996e566	we_01a2184fb4bf644e1182e0adb751	1	t	200	scripted 200	\N	82	2026-11-26 14:43:27.213964+00
whd_01a2184fd7edd76a85d4f6885810	msg_01a2184fd71a41c5b2d4872b5f41	we_01a2184fb4bf644e1182e0adb751	1	t	200	scripted 200	\N	146	2026-11-26 14:43:35.533729+00
whd_01a2184fdf17cb07226714595a6d	msg_01a2184fde2ede8c7f4bcf710e67	we_01a2184fb4bf644e1182e0adb751	1	t	200	scripted 200	\N	156	2026-11-26 14:43:37.367792+00
whd_01a2184fe1a741ca591f2e4a4128	msg_01a2184fe11b9e1a4cc086206fcc	we_01a2184fb4bf644e1182e0adb751	1	t	200	scripted 200	\N	90	2026-11-26 14:43:38.024252+00
whd_01a2184fe3c6d78448fc9ab91e7c	msg_01a2184fb5c5acb7587a542be7a3	we_01a2184fb4bf644e1182e0adb751	2	t	200	scripted 200	\N	95	2026-11-26 14:43:38.56666+00
\.


--
-- Data for Name: webhook_endpoint; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.webhook_endpoint (id, tenant_id, url, description, enabled, created_at, secret_encrypted) FROM stdin;
we_01a2184fb4bf644e1182e0adb751	ten_01a2184fb3d87a43f0380fed096a	http://127.0.0.1:38403/hooks/87c02500733445a693f9986f0dcf47ca	\N	t	2026-11-26 14:43:26.528292+00	\\x67414141414142724345574f6b55765732485445675279736545647a76476a737158312d5a70365769714b6656345859556f4d452d395337744255616570716b44646368547153672d4e6f30486d576d654a69344444652d497a306378796a6f4d3248373265586a4262377a5f44386c516a4b53774a344c39695173674a665052506c337a3456766d494155757566515937465337685a5f324e6c4c4266496d69773d3d
\.


--
-- Data for Name: webhook_event; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.webhook_event (id, tenant_id, endpoint_id, type, payload, status, attempt_count, next_attempt_at, created_at, delivered_at) FROM stdin;
msg_01a2184fb61143326d823b19dbe1	ten_01a2184fb3d87a43f0380fed096a	we_01a2184fb4bf644e1182e0adb751	evaluation.completed	{"type":"evaluation.completed","timestamp":"2026-11-26T14:43:26.865167+00:00","data":{"object":"evaluation","id":"eval_01a2184fb51331a2a31d690475ea","name":"baseline","status":"completed","completed_with_errors":false,"metadata":{},"result_counts":{"total":24,"passed":24,"failed":0,"errored":0,"pending":0,"canceled":0,"skipped":0},"error":null,"completed_at":"2026-11-26T14:43:26.862089+00:00"}}	delivered	1	\N	2026-11-26 14:43:26.865472+00	2026-11-26 14:43:27.095558+00
msg_01a2184fb6a9bbc3eddba996e566	ten_01a2184fb3d87a43f0380fed096a	we_01a2184fb4bf644e1182e0adb751	evaluation.completed	{"type":"evaluation.completed","timestamp":"2026-11-26T14:43:27.017732+00:00","data":{"object":"evaluation","id":"eval_01a2184fb5257a9f529447b6d531","name":"candidate","status":"completed","completed_with_errors":false,"metadata":{},"result_counts":{"total":24,"passed":16,"failed":8,"errored":0,"pending":0,"canceled":0,"skipped":0},"error":null,"completed_at":"2026-11-26T14:43:27.014218+00:00"}}	delivered	1	\N	2026-11-26 14:43:27.018052+00	2026-11-26 14:43:27.21362+00
msg_01a2184fd71a41c5b2d4872b5f41	ten_01a2184fb3d87a43f0380fed096a	we_01a2184fb4bf644e1182e0adb751	run.completed	{"type":"run.completed","timestamp":"2026-11-26T14:43:35.322570+00:00","data":{"object":"run","id":"run_01a2184fd61a8b23e5f9af3efa17","name":"vqa run","status":"completed","completed_with_errors":false,"metadata":{},"result_counts":{"total":5,"passed":3,"failed":2,"errored":0,"pending":0,"canceled":0,"skipped":0},"error":null,"completed_at":"2026-11-26T14:43:35.293361+00:00"}}	delivered	1	\N	2026-11-26 14:43:35.323142+00	2026-11-26 14:43:35.533379+00
msg_01a2184fde2ede8c7f4bcf710e67	ten_01a2184fb3d87a43f0380fed096a	we_01a2184fb4bf644e1182e0adb751	eval.run.succeeded	{"id":"msg_01a2184fde2ede8c7f4bcf710e67","object":"event","created_at":1795704217,"type":"eval.run.succeeded","data":{"object":"eval.run","id":"evalrun_01a2184fdcb70758a19b1310940c","name":"eval_run_inline","status":"completed","completed_with_errors":false,"metadata":{},"result_counts":{"total":3,"errored":0,"failed":2,"passed":1},"error":null,"completed_at":1795704217,"eval_id":"eval_01a2184fdca0877a9ac7705a92a7"}}	delivered	1	\N	2026-11-26 14:43:37.134651+00	2026-11-26 14:43:37.36735+00
msg_01a2184fe11b9e1a4cc086206fcc	ten_01a2184fb3d87a43f0380fed096a	we_01a2184fb4bf644e1182e0adb751	eval.run.succeeded	{"id":"msg_01a2184fe11b9e1a4cc086206fcc","object":"event","created_at":1795704217,"type":"eval.run.succeeded","data":{"object":"eval.run","id":"evalrun_01a2184fdf74fa9642c0d11cced3","name":"eval_run_file","status":"completed","completed_with_errors":false,"metadata":{},"result_counts":{"total":3,"errored":0,"failed":2,"passed":1},"error":null,"completed_at":1795704217,"eval_id":"eval_01a2184fdca0877a9ac7705a92a7"}}	delivered	1	\N	2026-11-26 14:43:37.883403+00	2026-11-26 14:43:38.023917+00
msg_01a2184fb5c5acb7587a542be7a3	ten_01a2184fb3d87a43f0380fed096a	we_01a2184fb4bf644e1182e0adb751	evaluation.completed	{"type":"evaluation.completed","timestamp":"2026-11-26T14:43:26.789195+00:00","data":{"object":"evaluation","id":"eval_01a2184fb4d0a60c6d6783f0fa2d","name":"judged with images","status":"completed","completed_with_errors":false,"metadata":{},"result_counts":{"total":18,"passed":15,"failed":3,"errored":0,"pending":0,"canceled":0,"skipped":0},"error":null,"completed_at":"2026-11-26T14:43:26.781232+00:00"}}	delivered	2	\N	2026-11-26 14:43:26.790198+00	2026-11-26 14:43:38.566266+00
\.


--
-- Name: dataset_row_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.dataset_row_id_seq', 5, true);


--
-- Name: idempotency_key_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.idempotency_key_id_seq', 1, true);


--
-- Name: test_case_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.test_case_id_seq', 38, true);


--
-- Name: alembic_version alembic_version_pkc; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alembic_version
    ADD CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num);


--
-- Name: api_key pk_api_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_key
    ADD CONSTRAINT pk_api_key PRIMARY KEY (id);


--
-- Name: blob pk_blob; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.blob
    ADD CONSTRAINT pk_blob PRIMARY KEY (sha256);


--
-- Name: blob_owner pk_blob_owner; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.blob_owner
    ADD CONSTRAINT pk_blob_owner PRIMARY KEY (tenant_id, sha256);


--
-- Name: blob_ref pk_blob_ref; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.blob_ref
    ADD CONSTRAINT pk_blob_ref PRIMARY KEY (sha256, holder_id);


--
-- Name: candidate_model pk_candidate_model; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.candidate_model
    ADD CONSTRAINT pk_candidate_model PRIMARY KEY (id);


--
-- Name: comparison pk_comparison; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.comparison
    ADD CONSTRAINT pk_comparison PRIMARY KEY (id);


--
-- Name: dataset pk_dataset; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dataset
    ADD CONSTRAINT pk_dataset PRIMARY KEY (id);


--
-- Name: dataset_row pk_dataset_row; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dataset_row
    ADD CONSTRAINT pk_dataset_row PRIMARY KEY (id);


--
-- Name: eval_definition pk_eval_definition; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.eval_definition
    ADD CONSTRAINT pk_eval_definition PRIMARY KEY (id);


--
-- Name: eval_file pk_eval_file; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.eval_file
    ADD CONSTRAINT pk_eval_file PRIMARY KEY (id);


--
-- Name: eval_run pk_eval_run; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.eval_run
    ADD CONSTRAINT pk_eval_run PRIMARY KEY (id);


--
-- Name: evaluation pk_evaluation; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.evaluation
    ADD CONSTRAINT pk_evaluation PRIMARY KEY (id);


--
-- Name: idempotency_key pk_idempotency_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_key
    ADD CONSTRAINT pk_idempotency_key PRIMARY KEY (id);


--
-- Name: judge_cache_entry pk_judge_cache_entry; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.judge_cache_entry
    ADD CONSTRAINT pk_judge_cache_entry PRIMARY KEY (scope, key);


--
-- Name: judge_claim pk_judge_claim; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.judge_claim
    ADD CONSTRAINT pk_judge_claim PRIMARY KEY (scope, key);


--
-- Name: metric_summary pk_metric_summary; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.metric_summary
    ADD CONSTRAINT pk_metric_summary PRIMARY KEY (evaluation_id, metric_index);


--
-- Name: result pk_result; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.result
    ADD CONSTRAINT pk_result PRIMARY KEY (id);


--
-- Name: run pk_run; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run
    ADD CONSTRAINT pk_run PRIMARY KEY (id);


--
-- Name: run_score pk_run_score; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run_score
    ADD CONSTRAINT pk_run_score PRIMARY KEY (run_id, key, subset);


--
-- Name: signed_out_session pk_signed_out_session; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.signed_out_session
    ADD CONSTRAINT pk_signed_out_session PRIMARY KEY (nonce);


--
-- Name: tenant pk_tenant; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tenant
    ADD CONSTRAINT pk_tenant PRIMARY KEY (id);


--
-- Name: test_case pk_test_case; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.test_case
    ADD CONSTRAINT pk_test_case PRIMARY KEY (id);


--
-- Name: webhook_delivery pk_webhook_delivery; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_delivery
    ADD CONSTRAINT pk_webhook_delivery PRIMARY KEY (id);


--
-- Name: webhook_endpoint pk_webhook_endpoint; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_endpoint
    ADD CONSTRAINT pk_webhook_endpoint PRIMARY KEY (id);


--
-- Name: webhook_event pk_webhook_event; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_event
    ADD CONSTRAINT pk_webhook_event PRIMARY KEY (id);


--
-- Name: api_key uq_api_key_key_hash; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_key
    ADD CONSTRAINT uq_api_key_key_hash UNIQUE (key_hash);


--
-- Name: dataset_row uq_dataset_row_dataset_id_subset_index; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dataset_row
    ADD CONSTRAINT uq_dataset_row_dataset_id_subset_index UNIQUE (dataset_id, subset, index);


--
-- Name: idempotency_key uq_idempotency_key_tenant_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_key
    ADD CONSTRAINT uq_idempotency_key_tenant_id_key UNIQUE (tenant_id, key);


--
-- Name: result uq_result_evaluation_id_test_case_index_metric_index; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.result
    ADD CONSTRAINT uq_result_evaluation_id_test_case_index_metric_index UNIQUE (evaluation_id, test_case_index, metric_index);


--
-- Name: tenant uq_tenant_name; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tenant
    ADD CONSTRAINT uq_tenant_name UNIQUE (name);


--
-- Name: test_case uq_test_case_evaluation_id_index; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.test_case
    ADD CONSTRAINT uq_test_case_evaluation_id_index UNIQUE (evaluation_id, index);


--
-- Name: webhook_endpoint uq_webhook_endpoint_tenant_id_url; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_endpoint
    ADD CONSTRAINT uq_webhook_endpoint_tenant_id_url UNIQUE (tenant_id, url);


--
-- Name: ix_api_key_tenant_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_api_key_tenant_id ON public.api_key USING btree (tenant_id);


--
-- Name: ix_blob_ref_holder_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_blob_ref_holder_id ON public.blob_ref USING btree (holder_id);


--
-- Name: ix_candidate_model_tenant_id_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_candidate_model_tenant_id_id ON public.candidate_model USING btree (tenant_id, id);


--
-- Name: ix_comparison_tenant_id_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_comparison_tenant_id_id ON public.comparison USING btree (tenant_id, id);


--
-- Name: ix_dataset_tenant_id_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_dataset_tenant_id_id ON public.dataset USING btree (tenant_id, id);


--
-- Name: ix_eval_definition_tenant_id_created_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_eval_definition_tenant_id_created_at ON public.eval_definition USING btree (tenant_id, created_at);


--
-- Name: ix_eval_file_tenant_id_created_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_eval_file_tenant_id_created_at ON public.eval_file USING btree (tenant_id, created_at);


--
-- Name: ix_eval_run_eval_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_eval_run_eval_id ON public.eval_run USING btree (eval_id);


--
-- Name: ix_evaluation_status_heartbeat_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_evaluation_status_heartbeat_at ON public.evaluation USING btree (status, heartbeat_at);


--
-- Name: ix_evaluation_tenant_id_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_evaluation_tenant_id_id ON public.evaluation USING btree (tenant_id, id);


--
-- Name: ix_idempotency_key_created_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_idempotency_key_created_at ON public.idempotency_key USING btree (created_at);


--
-- Name: ix_result_created_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_result_created_at ON public.result USING btree (created_at);


--
-- Name: ix_signed_out_session_expires_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_signed_out_session_expires_at ON public.signed_out_session USING btree (expires_at);


--
-- Name: ix_test_case_evaluation_id_context_hash; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_test_case_evaluation_id_context_hash ON public.test_case USING btree (evaluation_id, context_hash);


--
-- Name: ix_webhook_delivery_endpoint_id_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_webhook_delivery_endpoint_id_id ON public.webhook_delivery USING btree (endpoint_id, id);


--
-- Name: ix_webhook_event_status_next_attempt_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_webhook_event_status_next_attempt_at ON public.webhook_event USING btree (status, next_attempt_at);


--
-- Name: api_key fk_api_key_tenant_id_tenant; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_key
    ADD CONSTRAINT fk_api_key_tenant_id_tenant FOREIGN KEY (tenant_id) REFERENCES public.tenant(id) ON DELETE CASCADE;


--
-- Name: blob_owner fk_blob_owner_sha256_blob; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.blob_owner
    ADD CONSTRAINT fk_blob_owner_sha256_blob FOREIGN KEY (sha256) REFERENCES public.blob(sha256) ON DELETE CASCADE;


--
-- Name: blob_owner fk_blob_owner_tenant_id_tenant; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.blob_owner
    ADD CONSTRAINT fk_blob_owner_tenant_id_tenant FOREIGN KEY (tenant_id) REFERENCES public.tenant(id) ON DELETE CASCADE;


--
-- Name: blob_ref fk_blob_ref_tenant_id_tenant; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.blob_ref
    ADD CONSTRAINT fk_blob_ref_tenant_id_tenant FOREIGN KEY (tenant_id) REFERENCES public.tenant(id) ON DELETE CASCADE;


--
-- Name: candidate_model fk_candidate_model_tenant_id_tenant; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.candidate_model
    ADD CONSTRAINT fk_candidate_model_tenant_id_tenant FOREIGN KEY (tenant_id) REFERENCES public.tenant(id) ON DELETE CASCADE;


--
-- Name: comparison fk_comparison_baseline_id_evaluation; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.comparison
    ADD CONSTRAINT fk_comparison_baseline_id_evaluation FOREIGN KEY (baseline_id) REFERENCES public.evaluation(id) ON DELETE CASCADE;


--
-- Name: comparison fk_comparison_candidate_id_evaluation; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.comparison
    ADD CONSTRAINT fk_comparison_candidate_id_evaluation FOREIGN KEY (candidate_id) REFERENCES public.evaluation(id) ON DELETE CASCADE;


--
-- Name: comparison fk_comparison_tenant_id_tenant; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.comparison
    ADD CONSTRAINT fk_comparison_tenant_id_tenant FOREIGN KEY (tenant_id) REFERENCES public.tenant(id) ON DELETE CASCADE;


--
-- Name: dataset_row fk_dataset_row_dataset_id_dataset; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dataset_row
    ADD CONSTRAINT fk_dataset_row_dataset_id_dataset FOREIGN KEY (dataset_id) REFERENCES public.dataset(id) ON DELETE CASCADE;


--
-- Name: dataset fk_dataset_tenant_id_tenant; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dataset
    ADD CONSTRAINT fk_dataset_tenant_id_tenant FOREIGN KEY (tenant_id) REFERENCES public.tenant(id) ON DELETE CASCADE;


--
-- Name: eval_definition fk_eval_definition_tenant_id_tenant; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.eval_definition
    ADD CONSTRAINT fk_eval_definition_tenant_id_tenant FOREIGN KEY (tenant_id) REFERENCES public.tenant(id) ON DELETE CASCADE;


--
-- Name: eval_file fk_eval_file_tenant_id_tenant; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.eval_file
    ADD CONSTRAINT fk_eval_file_tenant_id_tenant FOREIGN KEY (tenant_id) REFERENCES public.tenant(id) ON DELETE CASCADE;


--
-- Name: eval_run fk_eval_run_eval_id_eval_definition; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.eval_run
    ADD CONSTRAINT fk_eval_run_eval_id_eval_definition FOREIGN KEY (eval_id) REFERENCES public.eval_definition(id) ON DELETE CASCADE;


--
-- Name: eval_run fk_eval_run_id_evaluation; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.eval_run
    ADD CONSTRAINT fk_eval_run_id_evaluation FOREIGN KEY (id) REFERENCES public.evaluation(id) ON DELETE CASCADE;


--
-- Name: eval_run fk_eval_run_model_id_candidate_model; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.eval_run
    ADD CONSTRAINT fk_eval_run_model_id_candidate_model FOREIGN KEY (model_id) REFERENCES public.candidate_model(id) ON DELETE SET NULL;


--
-- Name: eval_run fk_eval_run_tenant_id_tenant; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.eval_run
    ADD CONSTRAINT fk_eval_run_tenant_id_tenant FOREIGN KEY (tenant_id) REFERENCES public.tenant(id) ON DELETE CASCADE;


--
-- Name: evaluation fk_evaluation_tenant_id_tenant; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.evaluation
    ADD CONSTRAINT fk_evaluation_tenant_id_tenant FOREIGN KEY (tenant_id) REFERENCES public.tenant(id) ON DELETE CASCADE;


--
-- Name: evaluation fk_evaluation_webhook_endpoint_id_webhook_endpoint; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.evaluation
    ADD CONSTRAINT fk_evaluation_webhook_endpoint_id_webhook_endpoint FOREIGN KEY (webhook_endpoint_id) REFERENCES public.webhook_endpoint(id) ON DELETE SET NULL;


--
-- Name: idempotency_key fk_idempotency_key_tenant_id_tenant; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_key
    ADD CONSTRAINT fk_idempotency_key_tenant_id_tenant FOREIGN KEY (tenant_id) REFERENCES public.tenant(id) ON DELETE CASCADE;


--
-- Name: metric_summary fk_metric_summary_evaluation_id_evaluation; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.metric_summary
    ADD CONSTRAINT fk_metric_summary_evaluation_id_evaluation FOREIGN KEY (evaluation_id) REFERENCES public.evaluation(id) ON DELETE CASCADE;


--
-- Name: result fk_result_evaluation_id_evaluation; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.result
    ADD CONSTRAINT fk_result_evaluation_id_evaluation FOREIGN KEY (evaluation_id) REFERENCES public.evaluation(id) ON DELETE CASCADE;


--
-- Name: run fk_run_dataset_id_dataset; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run
    ADD CONSTRAINT fk_run_dataset_id_dataset FOREIGN KEY (dataset_id) REFERENCES public.dataset(id) ON DELETE CASCADE;


--
-- Name: run fk_run_id_evaluation; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run
    ADD CONSTRAINT fk_run_id_evaluation FOREIGN KEY (id) REFERENCES public.evaluation(id) ON DELETE CASCADE;


--
-- Name: run fk_run_model_id_candidate_model; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run
    ADD CONSTRAINT fk_run_model_id_candidate_model FOREIGN KEY (model_id) REFERENCES public.candidate_model(id) ON DELETE SET NULL;


--
-- Name: run_score fk_run_score_run_id_run; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run_score
    ADD CONSTRAINT fk_run_score_run_id_run FOREIGN KEY (run_id) REFERENCES public.run(id) ON DELETE CASCADE;


--
-- Name: run fk_run_tenant_id_tenant; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run
    ADD CONSTRAINT fk_run_tenant_id_tenant FOREIGN KEY (tenant_id) REFERENCES public.tenant(id) ON DELETE CASCADE;


--
-- Name: test_case fk_test_case_evaluation_id_evaluation; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.test_case
    ADD CONSTRAINT fk_test_case_evaluation_id_evaluation FOREIGN KEY (evaluation_id) REFERENCES public.evaluation(id) ON DELETE CASCADE;


--
-- Name: webhook_delivery fk_webhook_delivery_endpoint_id_webhook_endpoint; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_delivery
    ADD CONSTRAINT fk_webhook_delivery_endpoint_id_webhook_endpoint FOREIGN KEY (endpoint_id) REFERENCES public.webhook_endpoint(id) ON DELETE CASCADE;


--
-- Name: webhook_delivery fk_webhook_delivery_event_id_webhook_event; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_delivery
    ADD CONSTRAINT fk_webhook_delivery_event_id_webhook_event FOREIGN KEY (event_id) REFERENCES public.webhook_event(id) ON DELETE CASCADE;


--
-- Name: webhook_endpoint fk_webhook_endpoint_tenant_id_tenant; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_endpoint
    ADD CONSTRAINT fk_webhook_endpoint_tenant_id_tenant FOREIGN KEY (tenant_id) REFERENCES public.tenant(id) ON DELETE CASCADE;


--
-- Name: webhook_event fk_webhook_event_endpoint_id_webhook_endpoint; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_event
    ADD CONSTRAINT fk_webhook_event_endpoint_id_webhook_endpoint FOREIGN KEY (endpoint_id) REFERENCES public.webhook_endpoint(id) ON DELETE CASCADE;


--
-- Name: webhook_event fk_webhook_event_tenant_id_tenant; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_event
    ADD CONSTRAINT fk_webhook_event_tenant_id_tenant FOREIGN KEY (tenant_id) REFERENCES public.tenant(id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--

\unrestrict 6Ds3DC3W3c7dq84gWR49r9BYXhZsWjBgZ52ChlmiZUacz6GcRKqAg6lRbPqq5Tb

