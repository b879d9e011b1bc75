/** MemoryApprovalStore: the ApprovalStore contract (the Redis store runs the same one). */
import { MemoryApprovalStore } from '../../../src/approval/approval-flows';
import { approvalStoreContract } from '../../helpers/contracts/approval-store';

describe('MemoryApprovalStore', () => {
  approvalStoreContract(() => new MemoryApprovalStore());
});
