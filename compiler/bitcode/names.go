package bitcode

import "strconv"

// Block ids (LLVM's numbering: application blocks start at 8).
const (
	blockInfoID      = 0
	moduleBlockID    = 8
	paramAttrID      = 9
	paramAttrGroupID = 10
	constantsID      = 11
	functionID       = 12
	identificationID = 13
	valueSymtabID    = 14
	metadataID       = 15
	metadataAttachID = 16
	typeBlockID      = 17
	uselistID        = 18
	moduleStrtabID   = 19
	summaryID        = 20
	bundleTagsID     = 21
	metadataKindID   = 22
	strtabID         = 23
	fullLTOSummaryID = 24
	symtabID         = 25
	syncScopeID      = 26
)

var blockNames = map[uint64]string{
	blockInfoID: "BLOCKINFO_BLOCK", moduleBlockID: "MODULE_BLOCK", paramAttrID: "PARAMATTR_BLOCK",
	paramAttrGroupID: "PARAMATTR_GROUP_BLOCK", constantsID: "CONSTANTS_BLOCK", functionID: "FUNCTION_BLOCK",
	identificationID: "IDENTIFICATION_BLOCK", valueSymtabID: "VALUE_SYMTAB_BLOCK", metadataID: "METADATA_BLOCK",
	metadataAttachID: "METADATA_ATTACHMENT_BLOCK", typeBlockID: "TYPE_BLOCK", uselistID: "USELIST_BLOCK",
	moduleStrtabID: "MODULE_STRTAB_BLOCK", summaryID: "GLOBALVAL_SUMMARY_BLOCK", bundleTagsID: "OPERAND_BUNDLE_TAGS_BLOCK",
	metadataKindID: "METADATA_KIND_BLOCK", strtabID: "STRTAB_BLOCK", fullLTOSummaryID: "FULL_LTO_GLOBALVAL_SUMMARY_BLOCK",
	symtabID: "SYMTAB_BLOCK", syncScopeID: "SYNC_SCOPE_NAMES_BLOCK",
}

func blockName(id uint64) string {
	if n, ok := blockNames[id]; ok {
		return n
	}
	return "BLOCK(id " + strconv.FormatUint(id, 10) + ")"
}

// FUNCTION_BLOCK record codes (LLVM's FunctionCodes): the reader's
// instRecord dispatches on them and recordNames names them.
const (
	funcCodeDeclareBlocks          = 1
	funcCodeInstBinop              = 2
	funcCodeInstCast               = 3
	funcCodeInstGEPOld             = 4
	funcCodeInstSelect             = 5
	funcCodeInstExtractElt         = 6
	funcCodeInstInsertElt          = 7
	funcCodeInstShuffleVec         = 8
	funcCodeInstCmp                = 9
	funcCodeInstRet                = 10
	funcCodeInstBr                 = 11
	funcCodeInstSwitch             = 12
	funcCodeInstInvoke             = 13
	funcCodeInstUnreachable        = 15
	funcCodeInstPhi                = 16
	funcCodeInstAlloca             = 19
	funcCodeInstLoad               = 20
	funcCodeInstVAArg              = 23
	funcCodeInstStoreOld           = 24
	funcCodeInstExtractVal         = 26
	funcCodeInstInsertVal          = 27
	funcCodeInstCmp2               = 28
	funcCodeInstVSelect            = 29
	funcCodeInstInboundsGEPOld     = 30
	funcCodeInstIndirectBr         = 31
	funcCodeDebugLocAgain          = 33
	funcCodeInstCall               = 34
	funcCodeDebugLoc               = 35
	funcCodeInstFence              = 36
	funcCodeInstCmpXchgOld         = 37
	funcCodeInstAtomicRMWOld       = 38
	funcCodeInstResume             = 39
	funcCodeInstLoadAtomic         = 41
	funcCodeInstStoreAtomicOld     = 42
	funcCodeInstGEP                = 43
	funcCodeInstStore              = 44
	funcCodeInstStoreAtomic        = 45
	funcCodeInstCmpXchg            = 46
	funcCodeInstLandingPad         = 47
	funcCodeInstCleanupRet         = 48
	funcCodeInstCatchRet           = 49
	funcCodeInstCatchPad           = 50
	funcCodeInstCleanupPad         = 51
	funcCodeInstCatchSwitch        = 52
	funcCodeOperandBundle          = 55
	funcCodeInstUnop               = 56
	funcCodeInstCallBr             = 57
	funcCodeInstFreeze             = 58
	funcCodeInstAtomicRMW          = 59
	funcCodeBlockAddrUsers         = 60
	funcCodeDebugRecordValue       = 61
	funcCodeDebugRecordDeclare     = 62
	funcCodeDebugRecordAssign      = 63
	funcCodeDebugRecordValueSimple = 64
	funcCodeDebugRecordLabel       = 65
)

var recordNames = map[uint64]map[uint64]string{
	identificationID: {1: "STRING", 2: "EPOCH"},
	moduleBlockID: {1: "VERSION", 2: "TRIPLE", 3: "DATALAYOUT", 4: "ASM", 5: "SECTIONNAME", 6: "DEPLIB",
		7: "GLOBALVAR", 8: "FUNCTION", 9: "ALIAS_OLD", 11: "GCNAME", 12: "COMDAT", 13: "VSTOFFSET",
		14: "ALIAS", 15: "METADATA_VALUES_UNUSED", 16: "SOURCE_FILENAME", 17: "HASH", 18: "IFUNC"},
	paramAttrID:      {1: "ENTRY_OLD", 2: "ENTRY"},
	paramAttrGroupID: {3: "GRP_ENTRY"},
	typeBlockID: {1: "NUMENTRY", 2: "VOID", 3: "FLOAT", 4: "DOUBLE", 5: "LABEL", 6: "OPAQUE", 7: "INTEGER",
		8: "POINTER", 9: "FUNCTION_OLD", 10: "HALF", 11: "ARRAY", 12: "VECTOR", 13: "X86_FP80", 14: "FP128",
		15: "PPC_FP128", 16: "METADATA", 17: "X86_MMX", 18: "STRUCT_ANON", 19: "STRUCT_NAME", 20: "STRUCT_NAMED",
		21: "FUNCTION", 22: "TOKEN", 23: "BFLOAT", 24: "X86_AMX", 25: "OPAQUE_POINTER", 26: "TARGET_TYPE"},
	bundleTagsID:     {1: "OPERAND_BUNDLE_TAG"},
	syncScopeID:      {1: "SYNC_SCOPE_NAME"},
	valueSymtabID:    {1: "ENTRY", 2: "BBENTRY", 3: "FNENTRY", 5: "COMBINED_ENTRY"},
	metadataKindID:   {6: "KIND"},
	metadataAttachID: {11: "ATTACHMENT"},
	metadataID: {1: "STRING_OLD", 2: "VALUE", 3: "NODE", 4: "NAME", 5: "DISTINCT_NODE", 6: "KIND", 7: "LOCATION",
		8: "OLD_NODE", 9: "OLD_FN_NODE", 10: "NAMED_NODE", 11: "ATTACHMENT", 12: "GENERIC_DEBUG", 13: "SUBRANGE",
		14: "ENUMERATOR", 15: "BASIC_TYPE", 16: "FILE", 17: "DERIVED_TYPE", 18: "COMPOSITE_TYPE", 19: "SUBROUTINE_TYPE",
		20: "COMPILE_UNIT", 21: "SUBPROGRAM", 22: "LEXICAL_BLOCK", 23: "LEXICAL_BLOCK_FILE", 24: "NAMESPACE",
		25: "TEMPLATE_TYPE", 26: "TEMPLATE_VALUE", 27: "GLOBAL_VAR", 28: "LOCAL_VAR", 29: "EXPRESSION",
		30: "OBJC_PROPERTY", 31: "IMPORTED_ENTITY", 32: "MODULE", 33: "MACRO", 34: "MACRO_FILE", 35: "STRINGS",
		36: "GLOBAL_DECL_ATTACHMENT", 37: "GLOBAL_VAR_EXPR", 38: "INDEX_OFFSET", 39: "INDEX", 40: "LABEL",
		41: "STRING_TYPE", 44: "COMMON_BLOCK", 45: "GENERIC_SUBRANGE", 46: "ARG_LIST", 47: "ASSIGN_ID"},
	constantsID: {1: "SETTYPE", 2: "NULL", 3: "UNDEF", 4: "INTEGER", 5: "WIDE_INTEGER", 6: "FLOAT", 7: "AGGREGATE",
		8: "STRING", 9: "CSTRING", 10: "CE_BINOP", 11: "CE_CAST", 12: "CE_GEP_OLD", 13: "CE_SELECT", 14: "CE_EXTRACTELT",
		15: "CE_INSERTELT", 16: "CE_SHUFFLEVEC", 17: "CE_CMP", 18: "INLINEASM_OLD", 19: "CE_SHUFVEC_EX",
		20: "CE_INBOUNDS_GEP", 21: "BLOCKADDRESS", 22: "DATA", 23: "INLINEASM_OLD2", 24: "CE_GEP_WITH_INRANGE_INDEX_OLD",
		25: "CE_UNOP", 26: "POISON", 27: "DSO_LOCAL_EQUIVALENT", 28: "INLINEASM_OLD3", 29: "NO_CFI_VALUE",
		30: "INLINEASM", 31: "CE_GEP_WITH_INRANGE", 32: "CE_GEP", 33: "PTRAUTH"},
	functionID: {
		funcCodeDeclareBlocks:          "DECLAREBLOCKS",
		funcCodeInstBinop:              "INST_BINOP",
		funcCodeInstCast:               "INST_CAST",
		funcCodeInstGEPOld:             "INST_GEP_OLD",
		funcCodeInstSelect:             "INST_SELECT",
		funcCodeInstExtractElt:         "INST_EXTRACTELT",
		funcCodeInstInsertElt:          "INST_INSERTELT",
		funcCodeInstShuffleVec:         "INST_SHUFFLEVEC",
		funcCodeInstCmp:                "INST_CMP",
		funcCodeInstRet:                "INST_RET",
		funcCodeInstBr:                 "INST_BR",
		funcCodeInstSwitch:             "INST_SWITCH",
		funcCodeInstInvoke:             "INST_INVOKE",
		funcCodeInstUnreachable:        "INST_UNREACHABLE",
		funcCodeInstPhi:                "INST_PHI",
		funcCodeInstAlloca:             "INST_ALLOCA",
		funcCodeInstLoad:               "INST_LOAD",
		funcCodeInstVAArg:              "INST_VAARG",
		funcCodeInstStoreOld:           "INST_STORE_OLD",
		funcCodeInstExtractVal:         "INST_EXTRACTVAL",
		funcCodeInstInsertVal:          "INST_INSERTVAL",
		funcCodeInstCmp2:               "INST_CMP2",
		funcCodeInstVSelect:            "INST_VSELECT",
		funcCodeInstInboundsGEPOld:     "INST_INBOUNDS_GEP_OLD",
		funcCodeInstIndirectBr:         "INST_INDIRECTBR",
		funcCodeDebugLocAgain:          "DEBUG_LOC_AGAIN",
		funcCodeInstCall:               "INST_CALL",
		funcCodeDebugLoc:               "DEBUG_LOC",
		funcCodeInstFence:              "INST_FENCE",
		funcCodeInstCmpXchgOld:         "INST_CMPXCHG_OLD",
		funcCodeInstAtomicRMWOld:       "INST_ATOMICRMW_OLD",
		funcCodeInstResume:             "INST_RESUME",
		funcCodeInstLoadAtomic:         "INST_LOADATOMIC",
		funcCodeInstStoreAtomicOld:     "INST_STOREATOMIC_OLD",
		funcCodeInstGEP:                "INST_GEP",
		funcCodeInstStore:              "INST_STORE",
		funcCodeInstStoreAtomic:        "INST_STOREATOMIC",
		funcCodeInstCmpXchg:            "INST_CMPXCHG",
		funcCodeInstLandingPad:         "INST_LANDINGPAD",
		funcCodeInstCleanupRet:         "INST_CLEANUPRET",
		funcCodeInstCatchRet:           "INST_CATCHRET",
		funcCodeInstCatchPad:           "INST_CATCHPAD",
		funcCodeInstCleanupPad:         "INST_CLEANUPPAD",
		funcCodeInstCatchSwitch:        "INST_CATCHSWITCH",
		funcCodeOperandBundle:          "OPERAND_BUNDLE",
		funcCodeInstUnop:               "INST_UNOP",
		funcCodeInstCallBr:             "INST_CALLBR",
		funcCodeInstFreeze:             "INST_FREEZE",
		funcCodeInstAtomicRMW:          "INST_ATOMICRMW",
		funcCodeBlockAddrUsers:         "BLOCKADDR_USERS",
		funcCodeDebugRecordValue:       "DEBUG_RECORD_VALUE",
		funcCodeDebugRecordDeclare:     "DEBUG_RECORD_DECLARE",
		funcCodeDebugRecordAssign:      "DEBUG_RECORD_ASSIGN",
		funcCodeDebugRecordValueSimple: "DEBUG_RECORD_VALUE_SIMPLE",
		funcCodeDebugRecordLabel:       "DEBUG_RECORD_LABEL",
	},
	uselistID: {1: "DEFAULT", 2: "BB"},
	strtabID:  {1: "BLOB"},
	symtabID:  {1: "BLOB"},
}

// fullRecordNames holds recordName's answers for the known records, so
// that the hot paths do not build strings.
var fullRecordNames = func() map[[2]uint64]string {
	m := map[[2]uint64]string{}
	for b, recs := range recordNames {
		for c := range recs {
			m[[2]uint64{b, c}] = buildRecordName(b, c)
		}
	}
	return m
}()

// recordName is "BLOCK/RECORD(code N)" for error details.
func recordName(block, code uint64) string {
	if s, ok := fullRecordNames[[2]uint64{block, code}]; ok {
		return s
	}
	return buildRecordName(block, code)
}

func buildRecordName(block, code uint64) string {
	rec := "RECORD"
	if n, ok := recordNames[block][code]; ok {
		rec = n
	}
	return blockName(block) + "/" + rec + "(code " + strconv.FormatUint(code, 10) + ")"
}

func unknownRecord(off uint64, block, code uint64) *Error {
	return &Error{Code: CodeUnknownRecord, Detail: recordName(block, code), Offset: int64(off), Msg: "record not read by this reader"}
}

func unknownBlock(off uint64, id uint64) *Error {
	return &Error{Code: CodeUnknownBlock, Detail: blockName(id), Offset: int64(off), Msg: "block not read by this reader"}
}
