import type { Address } from "@solana/kit";

/** Mainnet program ids and well-known accounts. */
export const NAME_PROGRAM_ID = "namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX" as Address;
/** Parent of every top-level domain; `.sns` and legacy `.sol` share it. */
export const SNS_ROOT_DOMAIN = "58PwtjSDuFHuUkYjH9BYnnQKHfwo9reZhC2zMJv9JPkx" as Address;
export const NAME_TOKENIZER_ID = "nftD3vbNkNqfj2Sd3HZwbpw4BxxKWr4AjGb9X38JeZk" as Address;
export const SNS_RECORDS_ID = "HP3D4D1ZCmohQGFVms2SS4LCANgJyksBf5s1F77FuFjZ" as Address;
/** Class of every V2 record account. */
export const CENTRAL_STATE_SNS_RECORDS = "2pMnqHvei2N5oDcVGCRdZx48gqti199wr5CsyTTafsbo" as Address;
export const REVERSE_LOOKUP_CLASS = "33m47vH6Eav6jr5Ry86XjhRft2jRBLDnDgPSHoquXi2Z" as Address;
export const NAME_OFFERS_ID = "85iDfUvr3HJyLM2zcq5BXSiDvUWfw6cSE1FfNBo8Ap29" as Address;
/** Expected right-of-association signer for `url` and `CNAME` records. */
export const GUARDIAN_KEY = "ExXjtfdQe8JacoqP9Z535WzQKjF4CzW1TTRKRgpxvya3" as Address;
export const TOKEN_PROGRAM_ID = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA" as Address;
export const TOKEN_2022_PROGRAM_ID = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb" as Address;
export const ASSOCIATED_TOKEN_PROGRAM_ID = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL" as Address;
export const SYSTEM_PROGRAM_ID = "11111111111111111111111111111111" as Address;
/** Registrar program: registrations and subdomain reverse records. */
export const REGISTER_PROGRAM_ID = "jCebN34bUfdeUYJT13J1yG16XWQpt5PDx6Mse9GUqhR" as Address;
export const SYSVAR_RENT_ID = "SysvarRent111111111111111111111111111111111" as Address;
/** Owner of the registrar's payment vaults (each the associated token account of a payment mint). */
export const VAULT_OWNER = "5D2zKog251d6KPCyFyLMt3KroWwXXPWSgTPyhV22K2gR" as Address;
/** Pyth pull-oracle receiver: owner of the price feed accounts registrations are priced with. */
export const PYTH_PUSH_ORACLE_ID = "pyt2F414BA6dPttK6RddPZUdHfapoBN24GL5wbrPCou" as Address;

export const SNS_HASH_PREFIX = "SPL Name Service";
export const SUBDOMAIN_PREFIX = "\x00";
export const RECORD_V1_PREFIX = "\x01";
export const RECORD_V2_PREFIX = "\x02";

export const SNS_TLD = ".sns";
export const SOL_TLD = ".sol";

/** First finalized mainnet slot at which legacy `.sol` resolution is refused. */
export const SOL_TLD_CUTOFF_SLOT = 452_825_395;

/** SRS program: owns the `.sol` records of the SRS registry and their canonical token mints. */
export const SRS_PROGRAM_ID = "srsWjm76StJucL7atFyPSdXFaVLNPFqEt1uFEDPrZsn" as Address;
export const SOL_REGISTRAR_PROGRAM_ID = "GaWnVJgCt174ZtPKiwrbSNxWFwckWbNeWVStLE92Gxj4" as Address;
/** PDA(["central_state"], SOL_REGISTRAR_PROGRAM_ID). */
export const SRS_CENTRAL_STATE = "8K9XmpN6nKy3ERnMovnoj5cbqWKPiGYN8hCRRyW4TLQV" as Address;
/** PDA(["class", SRS_CENTRAL_STATE, ".sol"], SRS_PROGRAM_ID): the class every `.sol` SRS record carries. */
export const SOL_SRS_CLASS = "AjheAtCgSwEcEYd6xi6thcQW25ELWd7wKCx6SKBGUtMQ" as Address;
export const SRS_HASH_PREFIX = "SRS";

export const NAME_REGISTRY_HEADER_LEN = 96;
export const RECORD_V2_HEADER_LEN = 8;
export const NFT_RECORD_LEN = 98;
export const TOKEN_ACCOUNT_LEN = 165;
export const MINT_LEN = 82;
/** A Token-2022 multisig account: a length that never unpacks as a mint or a token account. */
export const MULTISIG_LEN = 355;
export const SIGNATURE_LEN = 64;
