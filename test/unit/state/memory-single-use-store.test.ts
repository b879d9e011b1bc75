import { MemorySingleUseStore } from '../../../src/state/single-use-store';
import { singleUseStoreContract } from '../../helpers/contracts/single-use-store';

describe('the SingleUseStore contract', () => singleUseStoreContract(() => new MemorySingleUseStore()));
